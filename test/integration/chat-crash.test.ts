import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteMember } from "../support/auth";
import { startBuiltServer, type BuiltServer } from "../support/built-server";
import { createTestDatabase, testEngine, type TestDatabase } from "../support/database";
import { connectSocket } from "../support/sockets";

// A crash loses no acknowledged message: the built server is killed with SIGKILL while messages sent over
// sockets are in flight, started again on the same data, and every message it acknowledged is there. On the default
// engine (PGlite in DATA_DIR) and on PostgreSQL.
describe("a crash while messages are in flight", () => {
  const secret = randomBytes(32).toString("base64url");
  let dataDir: string;
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  const servers: BuiltServer[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-crash-"));
    if (testEngine === "postgres") database = await createTestDatabase({ engine: "postgres", migrate: false });
    env = { DATA_DIR: dataDir, SUPABASE_JWT_SECRET: secret, SEED: "none", ...(database ? { DATABASE_URL: database.url! } : {}) };
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(servers.map((server) => server.stop()));
    await database?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("every acknowledged message is stored after a restart", async () => {
    const first = await startBuiltServer(env);
    servers.push(first);
    const listener = await remoteMember(first.url, secret);
    const senders = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const sender = await remoteMember(first.url, secret);
        const room = await (await sender.api("/api/chat/rooms", { participantIds: [listener.id], type: "DIRECT", name: null })).json();
        const socket = await connectSocket(first.url, sender.token);
        sockets.push(socket);
        return { roomId: room.data.chatRoom.id as string, socket };
      }),
    );

    // 50 messages at once (10 per sender, within the limit); the process is killed once 15 are acknowledged.
    const acknowledged: Array<{ id: number; roomId: string }> = [];
    let killing: Promise<void> | undefined;
    const sends = senders.flatMap(({ roomId, socket }) =>
      Array.from({ length: 10 }, (_, i) =>
        (socket.timeout(5_000).emitWithAck("chat:send", { roomId, content: `落ちる前${i}` }) as Promise<{ status: number; data?: { message: { id: number } } }>).then(
          (ack) => {
            if (ack.status !== 201) return;
            acknowledged.push({ id: ack.data!.message.id, roomId });
            if (acknowledged.length >= 15) killing ??= first.kill();
          },
          () => {}, // cut off by the crash: never acknowledged, so it may or may not be stored
        ),
      ),
    );
    await Promise.all(sends);
    await killing;
    expect(acknowledged.length).toBeGreaterThanOrEqual(15);

    const second = await startBuiltServer(env);
    servers.push(second);
    const rooms = [...new Set(acknowledged.map((message) => message.roomId))];
    const storedIds = new Set<number>();
    for (const roomId of rooms) {
      const listed = await (await fetch(new URL(`/api/chat/messages?roomId=${roomId}`, second.url), { headers: { Authorization: `Bearer ${listener.token}` } })).json();
      for (const message of listed.data.messages as Array<{ id: number }>) storedIds.add(message.id);
    }
    expect(acknowledged.filter((message) => !storedIds.has(message.id))).toEqual([]);
  }, 60_000);
});
