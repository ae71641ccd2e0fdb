// `npm run bench:chat [-- --sockets 1000 --messages 500 --rate 50 --tabs 10]`: delivery latency of chat messages.
// `npm run bench:chat -- --ceiling [--sockets 2000 --tabs 4 --step-seconds 2]`: the highest rate the server keeps up with.
// `npm run bench:chat -- --ceiling --baseline`: the same search first against a bare node:http + Socket.IO server (the
// same rooms and sockets, no auth, no database: test/perf/bare-chat-server.mjs), then against the app, and the ratio.
// Starts the built server (PGlite in a temp dir, or DATABASE_URL / REDIS_URL from the environment),
// signs up users, opens N sockets spread over them (several tabs each), pairs users in DIRECT rooms,
// posts messages through the HTTP API and times post sent → `chat:message` received on every socket
// that should get it. Prints connections, messages, refusals (429/503), p50/p95/p99, losses and server memory
// per connection. The server it starts is stopped on every way out: success, failure, Ctrl-C.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { io } from "socket.io-client";
import WebSocket from "ws";

const flag = (name) => process.argv.includes(`--${name}`);
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const arg = (name, fallback) => Number(option(name, fallback));
const BASELINE = flag("baseline");
const CEILING = flag("ceiling") || BASELINE;
const SOCKETS = arg("sockets", CEILING ? 2000 : 1000);
const MESSAGES = arg("messages", 500);
const TABS = arg("tabs", CEILING ? 4 : 10); // sockets per user
const USERS = Math.max(2, Math.ceil(SOCKETS / TABS) + (Math.ceil(SOCKETS / TABS) % 2));
const RATE = arg("rate", 50); // messages per second, paced: latency at a steady load, not at saturation
// 2 s: in 3 s steps the app reaches the most its 500 senders may send under the chat limit (1,666/s), not its ceiling.
const STEP_SECONDS = arg("step-seconds", 2);
const P99_TARGET_MS = arg("p99-target", 100);
const MAX_RATE = arg("max-rate", 4000);
const CONCURRENCY = 8;
// How the app's senders send: over their socket (`chat:send`, as a browser with JavaScript does) or by POST
// /api/chat/messages (`--via http`, as any other client).
const VIA = option("via", "socket");
if (!["socket", "http"].includes(VIA)) throw new Error("--via socket|http");
// The bare server is sent to by POST (the baseline of ADR 026), or with `--bare-via socket` over the socket as well.
const BARE_VIA = option("bare-via", "http");
// The chat rate limit (10 messages per 10 s per sender): a ceiling step never asks a sender for more.
const SENDER_LIMIT = 10;
const SENDER_WINDOW_MS = 10_000;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-bench-"));
// BENCH_NODE_ARGS="--cpu-prof" profiles the server during the run.
// After the timed part, SIGUSR1 opens the server's inspector (on a free port) so that the bench can collect its
// garbage before weighing its heap; an open inspector during the timed part would slow the server.
// `--probe`: the server prints its event loop's delay and its pool's wait once a second (test/perf/server-probe.mjs).
const nodeArgs = [
  "--inspect-port=127.0.0.1:0",
  ...(flag("probe") ? ["--import", path.join(import.meta.dirname, "server-probe.mjs")] : []),
  ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
];
// `--replicas 2`: that many app processes sharing DATABASE_URL and REDIS_URL (both required) and one DATA_DIR (its
// generated secrets). A user's tabs alternate between them, so every room has sockets on each.
const REPLICAS = arg("replicas", 1);
if (REPLICAS > 1 && !(process.env.DATABASE_URL && process.env.REDIS_URL)) throw new Error("--replicas needs DATABASE_URL and REDIS_URL");
const startApp = () => {
  const child = spawn(process.execPath, [...nodeArgs, "build/index.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, SEED: "none" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.exited = false;
  child.on("exit", () => (child.exited = true));
  return child;
};
const servers = [startApp()];
const server = servers[0];

/** Stops the servers (gracefully, then for good) and removes their data; safe to call more than once. */
let stopping;
function stopServer() {
  stopping ??= (async () => {
    await Promise.all(
      servers.map(async (child) => {
        if (child.exited) return;
        child.kill("SIGTERM");
        const exited = new Promise((resolve) => child.once("exit", resolve));
        const timeout = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
        await Promise.race([exited, timeout]);
        if (!child.exited) child.kill("SIGKILL");
      }),
    );
    fs.rmSync(dataDir, { recursive: true, force: true });
  })();
  return stopping;
}
async function fail(error) {
  console.error(`bench failed: ${error?.stack ?? error}`);
  await stopServer();
  process.exit(1);
}
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => fail(new Error(`stopped by ${signal}`)));
// Last resort (process.exit from anywhere): never leave the server running.
process.on("exit", () => {
  for (const child of servers) if (!child.exited) child.kill("SIGKILL");
});

let inspectorUrl;
/** A server's stderr, without the inspector's own lines. */
const passStderr = (text) => process.stderr.write(text.replace(/^(Debugger (listening|attached|ending)|For help, see|Waiting for the debugger).*\n/gm, ""));
server.stderr.on("data", (chunk) => {
  const text = String(chunk);
  inspectorUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(text)?.[1];
  passStderr(text);
});
/** The address a server started as a child prints once it listens (`line` captures its port). */
function addressOf(child, line, name) {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const port = line.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    child.on("exit", () => reject(new Error(`${name} stopped: ${out}`)));
  });
}
const appBases = [await addressOf(server, /GamerMatch: http:\/\/[^:]+:(\d+)/, "the server")];
// One after the other: the first has applied the migrations and written the secrets the others read.
while (servers.length < REPLICAS) {
  const replica = startApp();
  servers.push(replica);
  replica.stderr.on("data", (chunk) => passStderr(String(chunk)));
  appBases.push(await addressOf(replica, /GamerMatch: http:\/\/[^:]+:(\d+)/, `replica ${servers.length}`));
}
const appBase = appBases[0];
/** Where the load goes: the app, or (with --baseline, first) the bare server. */
let base = appBase;

/** Starts the bare Socket.IO server; answers its address and a function that stops it. */
async function startBare() {
  const bare = spawn(process.execPath, [path.join(import.meta.dirname, "bare-chat-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
  process.on("exit", () => bare.kill("SIGKILL"));
  const address = await addressOf(bare, /bare: http:\/\/[^:]+:(\d+)/, "the bare server");
  return { address, stop: () => new Promise((resolve) => (bare.once("exit", resolve), bare.kill("SIGTERM"))) };
}

/**
 * The server's JS heap after a full garbage collection, in bytes. Not Buffers and ArrayBuffers: PGlite's WASM
 * memory is one, and it grows with the database work of the run and never shrinks.
 */
async function serverMemory() {
  if (!inspectorUrl) {
    server.kill("SIGUSR1");
    for (let i = 0; i < 100 && !inspectorUrl; i++) await sleep(50);
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
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const REFUSED = new Set([429, 503]);
/** POST as JSON; an overloaded server's refusal (429/503) is retried after its Retry-After during set-up. */
async function post(pathname, body, token, { retryRefused = true } = {}) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(new URL(pathname, base), {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (REFUSED.has(response.status) && retryRefused && attempt < 20) {
      await response.arrayBuffer();
      await sleep(1000 * Number(response.headers.get("Retry-After") ?? 1));
      continue;
    }
    if (!response.ok) throw Object.assign(new Error(`${pathname}: ${response.status} ${await response.text()}`), { status: response.status });
    return response.status === 204 ? null : response.json();
  }
}
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
const percentile = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (value) => (value === undefined ? "–" : value.toFixed(1));

const users = [];
const rooms = [];
const sentAt = new Map(); // content → when its POST was sent
const deliveries = new Map(); // content → latencies of its deliveries
let refusedConnects = 0;
let opened = 0;

/**
 * Signs up the users, pairs them in DIRECT rooms and opens their sockets. Against the bare server (`bare`) a user is
 * a name, a room an id, and a socket joins its user's room by naming it in the handshake.
 */
async function setUp({ bare = false } = {}) {
  for (const user of users.splice(0)) for (const socket of user.sockets) socket.close();
  rooms.length = 0;
  opened = 0;
  refusedConnects = 0;
  console.log(`setting up: ${USERS} users × ${TABS} sockets${CEILING ? ", ceiling search" : `, ${MESSAGES} messages`}…`);
  await pool(Array.from({ length: USERS }, (_, i) => i), async (i) => {
    if (bare) {
      users[i] = { id: `bench-${i}`, token: null, rooms: [], sockets: [] };
      return;
    }
    const session = await post("/auth/v1/signup", { email: `bench-${i}-${Date.now()}@example.jp`, password: "bench-password-1" });
    await post("/api/user/profile", { displayName: `bench${i}` }, session.access_token);
    users[i] = { id: session.user.id, token: session.access_token, sockets: [] };
  });
  for (let i = 0; i < USERS; i += 2) {
    const id = bare ? `room-${i / 2}` : (await post("/api/chat/rooms", { participantIds: [users[i + 1].id], type: "DIRECT", name: null }, users[i].token)).data.chatRoom.id;
    if (bare) for (const member of [users[i], users[i + 1]]) member.rooms.push(id);
    rooms.push({ id, members: [users[i], users[i + 1]] });
  }
  await pool(users.flatMap((user) => Array.from({ length: TABS }, () => user)).slice(0, SOCKETS), async (user, index) => {
    const socket = await openSocket(user, bare ? base : appBases[index % appBases.length]);
    socket.on("chat:message", (message) => {
      const started = sentAt.get(message.content);
      if (started !== undefined) deliveries.get(message.content)?.push(performance.now() - started);
    });
    user.sockets.push(socket);
    opened++;
  });
  await sleep(500);
  console.log(`connections: ${opened}${refusedConnects ? ` (${refusedConnects} handshakes refused as overloaded, then retried)` : ""}`);
}

/** Opens a socket; an overloaded server refuses the handshake, and the client tries again after a second. */
async function openSocket(user, address) {
  for (let attempt = 0; ; attempt++) {
    const auth = user.token ? { token: user.token } : { rooms: user.rooms };
    const socket = io(address, { auth, transports: ["websocket"], reconnection: false, forceNew: true });
    const outcome = await new Promise((resolve) => {
      socket.once("ready", () => resolve("ready"));
      socket.once("connect_error", (error) => resolve(error));
    });
    if (outcome === "ready") return socket;
    socket.close();
    if (outcome?.data?.retryAfter && attempt < 20) {
      refusedConnects++;
      await sleep(1000 * outcome.data.retryAfter);
      continue;
    }
    throw new Error(`socket refused: ${outcome?.message}`);
  }
}

/**
 * Posts `count` messages at `rate` per second and waits for their deliveries. Senders take turns so that none
 * sends more than the chat rate limit allows in a window (`senderOffset` continues the rotation between steps).
 */
let messageNumber = 0;
async function runLoad({ rate, count, limited = true }) {
  const plan = Array.from({ length: count }, (_, i) => {
    const room = rooms[i % rooms.length];
    const sender = room.members[Math.floor(i / rooms.length) % 2];
    return { room, sender, content: `bench-${messageNumber++}` };
  });
  const perSender = new Map();
  for (const { sender } of plan) perSender.set(sender.id, (perSender.get(sender.id) ?? 0) + 1);
  if (limited && Math.max(...perSender.values()) > SENDER_LIMIT) {
    throw new Error("raise --sockets (or lower --tabs, --messages, --step-seconds): a sender would pass the chat rate limit");
  }
  const results = { accepted: [], refused: 0, refusedMs: [], failed: 0, requestMs: [] };
  const cpuBefore = cpuTimes();
  await messageCommits(); // from here on
  const started = performance.now();
  const inFlight = [];
  for (const [i, { room, sender, content }] of plan.entries()) {
    const due = started + (i * 1000) / rate;
    if (due > performance.now()) await sleep(due - performance.now());
    const sent = performance.now();
    sentAt.set(content, sent);
    deliveries.set(content, []);
    inFlight.push(
      sendOne({ room, sender, content }).then(
        ({ status, retryAfter }) => {
          const took = performance.now() - sent;
          if (status === 201) {
            results.accepted.push({ content, expected: room.members.reduce((sum, member) => sum + member.sockets.length, 0) });
            results.requestMs.push(took);
          } else if (REFUSED.has(status) && retryAfter) {
            results.refused++;
            results.refusedMs.push(took);
          } else {
            results.failed++;
          }
        },
        () => results.failed++,
      ),
    );
  }
  await Promise.all(inFlight);
  const expected = results.accepted.reduce((sum, message) => sum + message.expected, 0);
  const receivedCount = () => results.accepted.reduce((sum, message) => sum + deliveries.get(message.content).length, 0);
  for (let i = 0; i < 100 && receivedCount() < expected; i++) await sleep(50);
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuTimes();
  const commits = await messageCommits();
  const total = ["busy", "idle", "steal"].reduce((sum, k) => sum + cpuAfter[k] - cpuBefore[k], 0);
  const latencies = results.accepted.flatMap((message) => deliveries.get(message.content));
  return {
    ...results,
    elapsed,
    expected,
    received: receivedCount(),
    latency: percentile(latencies),
    request: percentile(results.requestMs),
    refusal: percentile(results.refusedMs),
    commits,
    cpu: (key) => `${((100 * (cpuAfter[key] - cpuBefore[key])) / total).toFixed(0)} %`,
  };
}

/**
 * The commits that stored the messages accepted since the last call, on PostgreSQL (read by a connection of the
 * bench's own; NaN on PGlite, which lives inside the server). A message's created_at is its transaction's start
 * (`now()`), so the distinct values among the step's messages are the commits that held them: group commit shows as
 * fewer commits than messages.
 */
let statsClient;
let lastMessageId = 0;
async function messageCommits() {
  if (!process.env.DATABASE_URL) return NaN;
  if (!statsClient) {
    statsClient = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await statsClient.connect();
  }
  const { rows } = await statsClient.query(
    "select count(distinct created_at)::int as commits, coalesce(max(id), $1)::int as last from chat_messages where id > $1",
    [lastMessageId],
  );
  lastMessageId = rows[0].last;
  return rows[0].commits;
}

let httpTurn = 0; // POSTs take turns over the replicas
/** Sends one message the way the run asks; answers its status and, for a refusal, when to come back. */
async function sendOne({ room, sender, content }) {
  const body = { roomId: room.id, content, messageType: "TEXT", metadata: null };
  if (!sender.token && BARE_VIA === "socket") {
    return sender.sockets[0].timeout(30_000).emitWithAck("send", { room: room.id, content });
  }
  if (!sender.token) {
    const response = await fetch(new URL("/send", base), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ room: room.id, content }) });
    await response.arrayBuffer();
    return { status: response.status };
  }
  if (VIA === "socket") {
    const reply = await sender.sockets[0].timeout(30_000).emitWithAck("chat:send", body);
    return { status: reply.status, retryAfter: reply.retryAfter };
  }
  const response = await fetch(new URL("/api/chat/messages", appBases[httpTurn++ % appBases.length]), {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${sender.token}` },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get("Retry-After") };
}

let exitCode = 0;

/**
 * Steps of STEP_SECONDS at a rising rate, with a pause between them (the senders' rate-limit window, and time for the
 * server to drain). A step passes when every message was accepted and delivered with p99 under target. The bare
 * server has no per-sender limit, so its search may go past what the app's limit allows these senders.
 */
async function findCeiling({ bare = false } = {}) {
  const maxRate = bare ? MAX_RATE : Math.min(MAX_RATE, Math.floor((USERS * SENDER_LIMIT) / STEP_SECONDS));
  console.log(`ceiling: steps of ${STEP_SECONDS} s, each message to ${TABS * 2} sockets, pass = nothing refused or lost and p99 < ${P99_TARGET_MS} ms (a failed rate is tried once more) (rates up to ${maxRate}/s)`);
  let passed = 0;
  let failedAt;
  // A rate fails only if it fails twice in a row: one pause (a checkpoint, a garbage collection, another process)
  // should not decide the ceiling.
  const step = async (rate) => (await tryRate(rate)) || (await tryRate(rate));
  const tryRate = async (rate) => {
    const r = await runLoad({ rate, count: Math.round(rate * STEP_SECONDS), limited: !bare });
    const lost = r.expected - r.received;
    const p99 = r.latency(99);
    const ok = r.refused === 0 && r.failed === 0 && lost === 0 && p99 !== undefined && p99 < P99_TARGET_MS;
    console.log(
      `  ${String(rate).padStart(5)}/s: ${ok ? "pass" : "FAIL"}  accepted ${r.accepted.length}, refused ${r.refused}` +
        `${r.refused ? ` (answered in p50 ${ms(r.refusal(50))} ms, p99 ${ms(r.refusal(99))} ms)` : ""}, failed ${r.failed}, lost ${lost};` +
        ` delivery p50 ${ms(r.latency(50))} p99 ${ms(p99)} ms; answer p99 ${ms(r.request(99))} ms; CPU busy ${r.cpu("busy")}, stolen ${r.cpu("steal")}` +
        `${Number.isNaN(r.commits) || bare ? "" : `; stored by ${r.commits} commits (${(r.accepted.length / Math.max(1, r.commits)).toFixed(1)} messages each)`}`,
    );
    if (r.failed > 0 || lost > 0) exitCode = 1; // an error or a lost message is a bug at any rate; a refusal is not
    // The senders' rate-limit window, and time to drain; the bare server has no limit, only the draining.
    await sleep(bare ? 2000 : SENDER_WINDOW_MS);
    return ok;
  };
  // Up by doubling from 50/s until a step fails (the highest rate allowed is the last step), then halve the gap
  // between the last pass and the first failure.
  for (let rate = 50; passed < maxRate; rate = Math.min(rate * 2, maxRate)) {
    if (!(await step(rate))) {
      failedAt = rate;
      break;
    }
    passed = rate;
  }
  while (failedAt && failedAt - passed > Math.max(25, passed / 8)) {
    const rate = Math.round((passed + failedAt) / 2 / 5) * 5;
    if (await step(rate)) passed = rate;
    else failedAt = rate;
  }
  const capped = !failedAt;
  console.log(
    `ceiling: ${capped ? "at least " : ""}${passed} messages/s${
      capped
        ? ` (the highest rate these senders may send in a step${bare ? "" : " under the chat rate limit"}: raise --sockets or shorten --step-seconds to go further)`
        : ` (failed at ${failedAt}/s)`
    }`,
  );
  return { rate: passed, capped };
}

if (BASELINE) {
  const bare = await startBare();
  base = bare.address;
  console.log(`baseline: bare node:http + Socket.IO, no auth, no database (test/perf/bare-chat-server.mjs), messages sent ${BARE_VIA === "socket" ? "over the socket" : "by POST"}`);
  await setUp({ bare: true });
  const bareCeiling = await findCeiling({ bare: true });
  for (const user of users) for (const socket of user.sockets) socket.close();
  await bare.stop();
  base = appBase;
  console.log(`\nthe app (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}${REPLICAS > 1 ? `, ${REPLICAS} replicas sharing it and Redis` : ""}), messages sent ${VIA === "socket" ? "over the socket (chat:send)" : "by POST /api/chat/messages"}`);
  await setUp();
  const appCeiling = await findCeiling();
  const atLeast = (ceiling) => `${ceiling.capped ? "≥ " : ""}${ceiling.rate}/s`;
  console.log(
    `\nceilings: bare ${atLeast(bareCeiling)}, app ${atLeast(appCeiling)}: ratio ${
      appCeiling.capped && bareCeiling.capped
        ? "unknown (both capped: raise --max-rate, or shorten --step-seconds)"
        : `${appCeiling.capped ? "≥ " : bareCeiling.capped ? "≤ " : ""}${(appCeiling.rate / bareCeiling.rate).toFixed(2)}`
    }`,
  );
} else if (CEILING) {
  await setUp();
  await findCeiling();
} else {
  await setUp();
  const r = await runLoad({ rate: RATE, count: MESSAGES });
  console.log(`rate: ${RATE} messages/s, each delivered to ${TABS * 2} sockets (both members' tabs)`);
  console.log(
    `messages: ${MESSAGES} in ${r.elapsed.toFixed(1)} s (${(MESSAGES / r.elapsed).toFixed(0)}/s): accepted ${r.accepted.length},` +
      ` refused as overloaded ${r.refused}${r.refused ? ` (answered in p50 ${ms(r.refusal(50))} ms, p99 ${ms(r.refusal(99))} ms)` : ""}, failed ${r.failed}`,
  );
  console.log(`deliveries of accepted messages: ${r.received}/${r.expected}, lost ${r.expected - r.received}`);
  console.log(`delivery latency ms: p50 ${ms(r.latency(50))}  p95 ${ms(r.latency(95))}  p99 ${ms(r.latency(99))}  max ${ms(r.latency(100))}`);
  // Steal is CPU time the hypervisor gave to other machines: on a shared VM it explains most of the spread between runs.
  console.log(`machine CPU during the timed part: busy ${r.cpu("busy")}, idle ${r.cpu("idle")}, stolen ${r.cpu("steal")}`);
  console.log(`answer (acknowledgement or POST response) ms: p50 ${ms(r.request(50))}  p95 ${ms(r.request(95))}  p99 ${ms(r.request(99))}  max ${ms(r.request(100))}`);
  if (r.failed > 0 || r.expected !== r.received) exitCode = 1;

  // Memory per connection: the heap with every socket open, then again once they have all closed.
  const memoryWith = await serverMemory();
  for (const user of users) for (const socket of user.sockets) socket.close();
  await sleep(1000);
  const memoryWithout = await serverMemory();
  console.log(
    `server JS heap after GC: ${(memoryWith / 2 ** 20).toFixed(1)} MB with the sockets open, ${(memoryWithout / 2 ** 20).toFixed(1)} MB once closed; ${((memoryWith - memoryWithout) / opened / 1024).toFixed(1)} KB per connection`,
  );
}

for (const user of users) for (const socket of user.sockets) socket.close();
await statsClient?.end();
await stopServer();
process.exit(exitCode);
