import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../server/cluster/cluster";
import { remoteMember } from "../support/auth";
import { startBuiltServer, type BuiltServer } from "../support/built-server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { collect, connectSocket, settle } from "../support/sockets";

/**
 * Redis restarting under two replicas (issue 38, part 4): a message stored while Redis is down is still stored and
 * answered 201, it reaches the other replica's member by their catch-up, cross-replica delivery resumes by itself once
 * Redis is back, and neither replica crashes. On a Redis server of the test's own (its own port, nothing kept on disk);
 * the machine's shared Redis is never stopped. Two replicas need a database both reach: the PostgreSQL pass only.
 */
const REDIS_SERVER = "/usr/bin/redis-server";
const skipReason = !process.env.TEST_DATABASE_URL
  ? "the PostgreSQL pass runs it (TEST_DATABASE_URL is not set)"
  : !fs.existsSync(REDIS_SERVER)
    ? `${REDIS_SERVER} is missing`
    : undefined;
if (skipReason) console.log(`[redis-restart] skipped: ${skipReason}`);

/** Cross-replica delivery is back within this of Redis's return. */
const RESUMED_WITHIN_MS = 10_000;

/** A Redis server of the test's own on `port`, in the foreground; resolves once it accepts connections. */
async function startRedis(port: number, dir: string) {
  const child = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", () => reject(new Error(`redis-server stopped:\n${output}`)));
  });
  return child;
}
const stopRedis = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

describe.skipIf(skipReason)("Redis restarting under two replicas", () => {
  const secret = randomBytes(32).toString("base64url");
  const servers: BuiltServer[] = [];
  let database: TestDatabase;
  let dataDir: string;
  let redis: ChildProcess;
  let redisPort: number;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-redis-restart-"));
    redisPort = await freePort();
    redis = await startRedis(redisPort, dataDir);
    database = await createTestDatabase({ engine: "postgres", seed: false });
    for (const name of ["a", "b"]) {
      servers.push(
        await startBuiltServer({
          DATA_DIR: path.join(dataDir, name),
          DATABASE_URL: database.url!,
          REDIS_URL: `redis://127.0.0.1:${redisPort}`,
          SUPABASE_JWT_SECRET: secret,
          SEED: "none",
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (redis) await stopRedis(redis);
    await database?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("stores what is sent meanwhile, delivers it by the catch-up, resumes by itself, and crashes nobody", async () => {
    const [a, b] = servers.map((server) => server.url) as [string, string];
    const alice = await remoteMember(a, secret, "アリス");
    const bob = await remoteMember(b, secret, "ボブ");
    const bobSocket = await connectSocket(b, bob.token);
    const received = collect<{ id: number; content: string }>(bobSocket, "chat:message");
    const room = await (await alice.api("/api/chat/rooms", { participantIds: [bob.id], type: "DIRECT", name: null })).json();
    const roomId = room.data.chatRoom.id as string;
    const send = async (content: string) => {
      const response = await alice.api("/api/chat/messages", { roomId, content, messageType: "TEXT", metadata: null });
      expect(response.status, content).toBe(201);
      return ((await response.json()) as { data: { message: { id: number } } }).data.message.id;
    };
    const heard = async (content: string, withinMs: number) => {
      for (const deadline = Date.now() + withinMs; Date.now() < deadline; await settle(50)) if (received.some((m) => m.content === content)) return true;
      return false;
    };

    await send("Redisが動いているとき");
    expect(await heard("Redisが動いているとき", 2_000)).toBe(true);

    // Reads on both replicas all along, counted by status: Redis's absence costs no request anything.
    const statuses = new Map<number, number>();
    let reading = true;
    const reads = [alice, bob].map(async (member) => {
      while (reading) {
        const response = await member.api(`/api/chat/messages?roomId=${roomId}`);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        await settle(50);
      }
    });

    // Redis gone: the message is stored and acknowledged all the same.
    await stopRedis(redis);
    await settle(500);
    const duringId = await send("Redisが止まっているあいだ");

    // Redis back on the same port, empty: delivery across replicas resumes without restarting anything.
    redis = await startRedis(redisPort, dataDir);
    const back = Date.now();
    let resumedAfterMs: number | undefined;
    for (let n = 1; Date.now() - back < RESUMED_WITHIN_MS; n++) {
      await send(`戻ったあと ${n}`);
      if (await heard(`戻ったあと ${n}`, 500)) {
        resumedAfterMs = Date.now() - back;
        break;
      }
    }
    reading = false;
    await Promise.all(reads);
    expect([...statuses.keys()]).toEqual([200]);
    console.log(`[redis-restart] reads through it all: ${JSON.stringify(Object.fromEntries(statuses))}`);
    console.log(`[redis-restart] cross-replica delivery back ${resumedAfterMs ?? "never"} ms after Redis; the message sent meanwhile ${received.some((m) => m.id === duringId) ? "was" : "was not"} delivered live`);
    expect(resumedAfterMs, `delivery across replicas not back within ${RESUMED_WITHIN_MS} ms`).toBeDefined();

    // What was sent meanwhile reaches Bob through the catch-up his page does on the next event or reconnect.
    const history = (await (await bob.api(`/api/chat/messages?roomId=${roomId}`)).json()) as { data: { messages: Array<{ id: number }> } };
    expect(history.data.messages.map((m) => m.id)).toContain(duringId);

    // Nobody crashed.
    for (const server of servers) expect(server.output()).not.toMatch(/uncaught|unhandled/i);
    expect(await Promise.race([Promise.any(servers.map((server) => server.exited)), settle(200).then(() => "running")])).toBe("running");
    bobSocket.close();
  }, 60_000);
});
