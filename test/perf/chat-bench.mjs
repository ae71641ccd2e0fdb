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
import WebSocket from "ws";

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
// After the timed part, SIGUSR1 opens the server's inspector (on a free port) so that the bench can collect its
// garbage before weighing its heap; an open inspector during the timed part would slow the server.
const nodeArgs = ["--inspect-port=127.0.0.1:0", ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [])];
const server = spawn(process.execPath, [...nodeArgs, "build/index.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, SEED: "none" },
  stdio: ["ignore", "pipe", "pipe"],
});
let inspectorUrl;
server.stderr.on("data", (chunk) => {
  const text = String(chunk);
  inspectorUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(text)?.[1];
  process.stderr.write(text.replace(/^(Debugger (listening|attached|ending)|For help, see|Waiting for the debugger).*\n/gm, ""));
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
/**
 * The server's JS heap after a full garbage collection, in bytes. Not Buffers and ArrayBuffers: PGlite's WASM
 * memory is one, and it grows with the database work of the run and never shrinks.
 */
async function serverMemory() {
  if (!inspectorUrl) {
    server.kill("SIGUSR1");
    for (let i = 0; i < 100 && !inspectorUrl; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const inspector = new WebSocket(inspectorUrl);
  await new Promise((resolve, reject) => {
    inspector.onopen = resolve;
    inspector.onerror = reject;
  });
  let id = 0;
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      const callId = ++id;
      inspector.addEventListener("message", function onMessage(event) {
        const reply = JSON.parse(event.data);
        if (reply.id !== callId) return;
        inspector.removeEventListener("message", onMessage);
        resolve(reply.result);
      });
      inspector.send(JSON.stringify({ id: callId, method, params }));
    });
  await call("HeapProfiler.collectGarbage");
  const { result } = await call("Runtime.evaluate", {
    expression: "process.memoryUsage().heapUsed",
    returnByValue: true,
  });
  inspector.close();
  return result.value;
}
const post = (pathname, body, token) =>
  fetch(new URL(pathname, base), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  }).then(async (response) => {
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? null : response.json();
  });
/** The machine's CPU time so far (all cores), from /proc/stat: busy, idle and stolen by the hypervisor. */
function cpuTimes() {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fs
    .readFileSync("/proc/stat", "utf8")
    .split("\n")[0]
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
}
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
const requestTimes = []; // post sent → its HTTP response (the event goes out before the response does)
let received = 0;
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

// Each sender stays under the chat rate limit (10 per 10 s): spread messages over the rooms' members.
let expected = 0;
const plan = Array.from({ length: MESSAGES }, (_, i) => {
  const room = rooms[i % rooms.length];
  const sender = room.members[Math.floor(i / rooms.length) % 2];
  expected += room.members.reduce((sum, member) => sum + member.sockets.length, 0);
  return { room, sender, content: `bench-${i}` };
});
const perSender = new Map();
const cpuBefore = cpuTimes();
const started = performance.now();
const inFlight = [];
for (const [i, { room, sender, content }] of plan.entries()) {
  const count = (perSender.get(sender.id) ?? 0) + 1;
  perSender.set(sender.id, count);
  if (count > 10) throw new Error("raise --sockets or lower --messages: a sender would pass the chat rate limit");
  const due = started + (i * 1000) / RATE;
  if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
  sentAt.set(content, performance.now());
  inFlight.push(
    post("/api/chat/messages", { roomId: room.id, content, messageType: "TEXT", metadata: null }, sender.token).then(() =>
      requestTimes.push(performance.now() - sentAt.get(content)),
    ),
  );
}
await Promise.all(inFlight);
for (let i = 0; i < 100 && received < expected; i++) await new Promise((resolve) => setTimeout(resolve, 50));
const elapsed = (performance.now() - started) / 1000;
const cpuAfter = cpuTimes();
const cpuShare = (key) => {
  const total = ["busy", "idle", "steal"].reduce((sum, k) => sum + cpuAfter[k] - cpuBefore[k], 0);
  return `${((100 * (cpuAfter[key] - cpuBefore[key])) / total).toFixed(0)} %`;
};

const percentile = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]?.toFixed(1);
};
const pct = percentile(latencies);
const requestPct = percentile(requestTimes);
console.log(`connections: ${opened}`);
console.log(`rate: ${RATE} messages/s, each delivered to ${TABS * 2} sockets (both members' tabs)`);
console.log(`messages: ${MESSAGES} in ${elapsed.toFixed(1)} s (${(MESSAGES / elapsed).toFixed(0)}/s), deliveries ${received}/${expected}, lost ${expected - received}`);
console.log(`delivery latency ms: p50 ${pct(50)}  p95 ${pct(95)}  p99 ${pct(99)}  max ${pct(100)}`);
// Steal is CPU time the hypervisor gave to other machines: on a shared VM it explains most of the spread between runs.
console.log(`machine CPU during the timed part: busy ${cpuShare("busy")}, idle ${cpuShare("idle")}, stolen ${cpuShare("steal")}`);
console.log(`POST response ms: p50 ${requestPct(50)}  p95 ${requestPct(95)}  p99 ${requestPct(99)}  max ${requestPct(100)}`);

// Memory per connection: the heap with every socket open, then again once they have all closed.
const memoryWith = await serverMemory();
for (const user of users) for (const socket of user.sockets) socket.close();
await new Promise((resolve) => setTimeout(resolve, 1000));
const memoryWithout = await serverMemory();
console.log(
  `server JS heap after GC: ${(memoryWith / 2 ** 20).toFixed(1)} MB with the sockets open, ${(memoryWithout / 2 ** 20).toFixed(1)} MB once closed; ${((memoryWith - memoryWithout) / opened / 1024).toFixed(1)} KB per connection`,
);

server.kill("SIGTERM");
await new Promise((resolve) => server.on("exit", resolve));
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(expected === received ? 0 : 1);
