// `npm run bench:chat [-- --sockets 1000 --messages 500 --rate 50 --tabs 10]`: delivery latency of chat messages.
// Starts the built server (PGlite in a temp dir, or DATABASE_URL / REDIS_URL from the environment),
// signs up users, opens N sockets spread over them (several tabs each), pairs users in DIRECT rooms,
// posts messages through the HTTP API and times post sent → `chat:message` received on every socket
// that should get it. Prints connections, messages, p50/p95/p99, losses and server memory per connection.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { io } from "socket.io-client";

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const SOCKETS = arg("sockets", 1000);
const MESSAGES = arg("messages", 500);
const TABS = arg("tabs", 10); // sockets per user
const USERS = Math.max(2, Math.ceil(SOCKETS / TABS) + (Math.ceil(SOCKETS / TABS) % 2));
const RATE = arg("rate", 50); // messages per second, paced: latency at a steady load, not at saturation
const CONCURRENCY = 8;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-bench-"));
// BENCH_NODE_ARGS="--cpu-prof" profiles the server during the run.
const server = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "build/index.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, SEED: "none" },
  stdio: ["ignore", "pipe", "inherit"],
});
const base = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (chunk) => {
    out += chunk;
    const port = /GamerMatch: http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
    if (port) resolve(`http://127.0.0.1:${port}`);
  });
  server.on("exit", () => reject(new Error(out)));
});
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, "utf8"))[1]) * 1024;
const post = (pathname, body, token) =>
  fetch(new URL(pathname, base), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  }).then(async (response) => {
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? null : response.json();
  });
async function pool(items, worker) {
  const queue = [...items.entries()];
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await worker(next[1], next[0]);
  }));
}

console.log(`setting up: ${USERS} users × ${TABS} sockets, ${MESSAGES} messages…`);
const users = [];
await pool(Array.from({ length: USERS }, (_, i) => i), async (i) => {
  const session = await post("/auth/v1/signup", { email: `bench-${i}-${Date.now()}@example.jp`, password: "bench-password-1" });
  await post("/api/user/profile", { displayName: `bench${i}` }, session.access_token);
  users[i] = { id: session.user.id, token: session.access_token, sockets: [] };
});
const rooms = [];
for (let i = 0; i < USERS; i += 2) {
  const result = await post("/api/chat/rooms", { participantIds: [users[i + 1].id], type: "DIRECT", name: null }, users[i].token);
  rooms.push({ id: result.data.chatRoom.id, members: [users[i], users[i + 1]] });
}

const sentAt = new Map();
const latencies = [];
let received = 0;
const memoryBefore = rss();
let opened = 0;
await pool(users.flatMap((user) => Array.from({ length: TABS }, () => user)).slice(0, SOCKETS), async (user) => {
  const socket = io(base, { auth: { token: user.token }, transports: ["websocket"], reconnection: false, forceNew: true });
  await new Promise((resolve, reject) => {
    socket.once("ready", resolve);
    socket.once("connect_error", reject);
  });
  socket.on("chat:message", (message) => {
    const started = sentAt.get(message.content);
    if (started !== undefined) {
      latencies.push(performance.now() - started);
      received++;
    }
  });
  user.sockets.push(socket);
  opened++;
});
await new Promise((resolve) => setTimeout(resolve, 500));
const memoryAfter = rss();

// Each sender stays under the chat rate limit (10 per 10 s): spread messages over the rooms' members.
let expected = 0;
const plan = Array.from({ length: MESSAGES }, (_, i) => {
  const room = rooms[i % rooms.length];
  const sender = room.members[Math.floor(i / rooms.length) % 2];
  expected += room.members.reduce((sum, member) => sum + member.sockets.length, 0);
  return { room, sender, content: `bench-${i}` };
});
const perSender = new Map();
const started = performance.now();
const inFlight = [];
for (const [i, { room, sender, content }] of plan.entries()) {
  const count = (perSender.get(sender.id) ?? 0) + 1;
  perSender.set(sender.id, count);
  if (count > 10) throw new Error("raise --sockets or lower --messages: a sender would pass the chat rate limit");
  const due = started + (i * 1000) / RATE;
  if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
  sentAt.set(content, performance.now());
  inFlight.push(post("/api/chat/messages", { roomId: room.id, content, messageType: "TEXT", metadata: null }, sender.token));
}
await Promise.all(inFlight);
for (let i = 0; i < 100 && received < expected; i++) await new Promise((resolve) => setTimeout(resolve, 50));
const elapsed = (performance.now() - started) / 1000;

latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
console.log(`connections: ${opened}`);
console.log(`rate: ${RATE} messages/s, each delivered to ${TABS * 2} sockets (both members' tabs)`);
console.log(`messages: ${MESSAGES} in ${elapsed.toFixed(1)} s (${(MESSAGES / elapsed).toFixed(0)}/s), deliveries ${received}/${expected}, lost ${expected - received}`);
console.log(`delivery latency ms: p50 ${pct(50)}  p95 ${pct(95)}  p99 ${pct(99)}  max ${latencies.at(-1)?.toFixed(1)}`);
console.log(`server memory: ${(memoryBefore / 2 ** 20).toFixed(0)} MB before sockets, ${(memoryAfter / 2 ** 20).toFixed(0)} MB after; ${((memoryAfter - memoryBefore) / opened / 1024).toFixed(1)} KB per connection`);

for (const user of users) for (const socket of user.sockets) socket.close();
server.kill("SIGTERM");
await new Promise((resolve) => server.on("exit", resolve));
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(expected === received ? 0 : 1);
