import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteMember } from "../support/auth";
import { startBuiltServer, type BuiltServer } from "../support/built-server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { collect, connectSocket, settle } from "../support/sockets";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

// Two replicas need a database both can reach: PostgreSQL (CI always sets TEST_DATABASE_URL).
describe.runIf(process.env.TEST_DATABASE_URL)("two server processes sharing one PostgreSQL and one Redis", () => {
  const secret = randomBytes(32).toString("base64url");
  const servers: BuiltServer[] = [];
  const urls: string[] = [];
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase({ engine: "postgres", seed: true });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-replicas-"));
    const url = database.url!;
    for (const name of ["a", "b"]) {
      const server = await startBuiltServer({
        DATA_DIR: path.join(dataDir, name),
        DATABASE_URL: url,
        REDIS_URL,
        SUPABASE_JWT_SECRET: secret,
        SEED: "none",
      });
      servers.push(server);
      urls.push(server.url);
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a message sent through one reaches a socket connected to the other", async () => {
    const [a, b] = urls as [string, string];
    const alice = await remoteMember(a, secret, "アリス");
    const bob = await remoteMember(b, secret, "ボブ");
    const bobSocket = await connectSocket(b, bob.token);
    const received = collect<{ content: string }>(bobSocket, "chat:message");

    const room = await (await alice.api("/api/chat/rooms", { participantIds: [bob.id], type: "DIRECT", name: null })).json();
    expect((await alice.api("/api/chat/messages", { roomId: room.data.chatRoom.id, content: "別のサーバーから", messageType: "TEXT", metadata: null })).status).toBe(201);
    for (let i = 0; i < 20 && received.length === 0; i++) await settle(100);
    expect(received.map((m) => m.content)).toEqual(["別のサーバーから"]);
    bobSocket.close();
  });

  it("one sender's socket messages through both at once: the rate limit holds exactly, and both replicas deliver", async () => {
    const [a, b] = urls as [string, string];
    const alice = await remoteMember(a, secret, "アリス");
    const bob = await remoteMember(b, secret, "ボブ");
    const [aliceOnA, aliceOnB, bobOnB] = await Promise.all([connectSocket(a, alice.token), connectSocket(b, alice.token), connectSocket(b, bob.token)]);
    const received = collect<{ content: string }>(bobOnB, "chat:message");
    const room = await (await alice.api("/api/chat/rooms", { participantIds: [bob.id], type: "DIRECT", name: null })).json();
    const roomId = room.data.chatRoom.id as string;

    const acks = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 ? aliceOnB : aliceOnA).timeout(10_000).emitWithAck("chat:send", { roomId, content: `二台から${i}` }) as Promise<{ status: number }>,
      ),
    );
    const statuses = acks.map((ack) => ack.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    const count = await database.db.selectFrom("chat_messages").select((eb) => eb.fn.countAll<number>().as("n")).where("room_id", "=", roomId).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10);
    for (let i = 0; i < 20 && received.length < 10; i++) await settle(100);
    expect(received).toHaveLength(10);
    for (const socket of [aliceOnA, aliceOnB, bobOnB]) socket.close();
  });
});
