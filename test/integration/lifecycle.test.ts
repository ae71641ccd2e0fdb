import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { io } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { SOCKET_MOVE } from "../../app/lib/constants/chat";
import { moveWhenAsked } from "../../app/lib/realtime-connection";
import { RealtimeEvent } from "../../app/lib/realtime-events";
import { KEEP_ALIVE_TIMEOUT_MS } from "../../server/app/shutdown";
import { createMember } from "../support/auth";
import { freshGet } from "../support/fresh-request";
import { startTestServer } from "../support/server";
import { connectSocket } from "../support/sockets";

const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the built server (`npm start`'s command) with only the given environment. */
const startBuilt = (env: { NODE_ENV: "production" } & Record<string, string>) => startProcess(process.execPath, ["build/index.js"], env);

/** Runs a command of the project with only the given environment (and PATH), collecting what it prints. */
function startProcess(command: string, args: string[], env: { NODE_ENV: "production" | "development" } & Record<string, string>) {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: "pipe",
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | string | null>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
  const waitFor = async (pattern: RegExp, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`never printed ${pattern}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return output.match(pattern)!;
  };
  return { child, exited, waitFor, output: () => output };
}

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-life-"));
  dirs.push(dir);
  return dir;
};

describe("the built server as a process", () => {
  it("stops at start-up with a message naming a bad variable", async () => {
    const server = startBuilt({ NODE_ENV: "production", PORT: "not-a-port", DATA_DIR: tempDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("PORT: Expected number");
  });

  it("runs in production with no configuration, seeds PGlite, keeps its secrets, and stops on SIGTERM", async () => {
    const dataDir = tempDir();
    // PORT 0 picks a free port; DATA_DIR keeps the test's files out of ./data. Nothing else is set.
    const server = startBuilt({ NODE_ENV: "production", PORT: "0", DATA_DIR: dataDir });
    const [, port] = await server.waitFor(/GamerMatch: http:\/\/localhost:(\d+) \(production, pglite\)/);
    expect(server.output()).toContain("demo data added");
    // Known demo passwords stay out of production unless ALLOW_DEMO_ACCOUNTS=true.
    expect(server.output()).toContain("demo accounts skipped in production");
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Apex Legends");
    const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
    expect(Object.keys(secrets)).toContain("HONEYPOT_SECRET");

    server.child.kill("SIGTERM");
    expect(await server.exited, server.output()).toBe(0);
    expect(server.output()).toContain('"msg":"server: closed"');

    // The PGlite files were closed cleanly: a second start finds the data and does not seed again.
    const again = startBuilt({ NODE_ENV: "production", PORT: "0", DATA_DIR: dataDir });
    await again.waitFor(/GamerMatch: http:\/\/localhost:\d+/);
    expect(again.output()).not.toContain("demo data added");
    again.child.kill("SIGINT");
    expect(await again.exited, again.output()).toBe(0);
  });
});

describe("graceful shutdown", () => {
  it("finishes a request already under way, refuses new ones and /readyz meanwhile, then disconnects sockets and closes the database", async () => {
    const app = await startTestServer();
    const { port } = new URL(app.url);

    const { token } = await createMember(app);
    const socket = await connectSocket(app.url, token);
    const socketClosed = new Promise<string>((resolve) => socket.on("disconnect", resolve));

    // A request whose body is still on its way when shutdown begins.
    const raw = net.connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => raw.on("connect", resolve));
    let reply = "";
    raw.on("data", (chunk) => (reply += chunk));
    const replied = new Promise<void>((resolve) => raw.on("end", resolve));
    const body = "name=a&email=a%40example.jp&category=other&body=x";
    raw.write(`POST /inquiry HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const closed = app.close();
    expect(app.server.draining()).toBe(true);
    // Still listening while the request finishes, but only to say it is going away (docs/product.md#operations).
    expect((await freshGet(`${app.url}/readyz`)).status).toBe(503);
    expect((await freshGet(`${app.url}/`)).status).toBe(503);
    expect(app.server.httpServer.listening).toBe(true);
    raw.end(body);

    await closed;
    await replied;
    expect(app.server.httpServer.listening).toBe(false);
    await expect(fetch(app.url)).rejects.toThrow();
    // The honeypot fields are missing, so the form is refused, but it was answered, not cut off.
    expect(reply).toMatch(/^HTTP\/1.1 400/);
    // Closed at the transport, not kicked: clients reconnect on their own, to another replica or this one restarted.
    expect(await socketClosed).toBe("transport close");
    expect(await app.database.ping()).toBe(false);
  });
});

describe("kept-alive connections", () => {
  it("stay open while idle for longer than Node's 5 s, so a client reusing one is answered on it; the shutdown still closes them at once", async () => {
    const app = await startTestServer({ seed: false });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean; socket: net.Socket }>((resolve, reject) => {
        const request = http.get(`${app.url}/healthz`, { agent }, (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket, socket: request.socket! }));
        });
        request.on("error", reject);
      });
    let closing: Promise<void> | undefined;
    try {
      const first = await get();
      expect(first).toMatchObject({ status: 200, reused: false });
      // Past Node's default keepAliveTimeout (5 s): with it, the server had closed the connection by now, and a
      // client that picked it up just as it closed got ECONNRESET (an e2e sign-in did, in CI).
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get();
      expect(second).toMatchObject({ status: 200, reused: true });
      expect(second.socket).toBe(first.socket);
      const socketClosed = new Promise<void>((resolve) => second.socket.once("close", () => resolve()));
      const started = Date.now();
      closing = app.close();
      await Promise.all([closing, socketClosed]);
      expect(Date.now() - started).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS / 2);
    } finally {
      agent.destroy();
      await (closing ?? app.close());
    }
  }, 40_000);
});

describe("a rolling deploy (ADR 048)", () => {
  it("fails /readyz first while the sockets stay, then tells them to move, and they reconnect at once", async () => {
    const GRACE_MS = 400;
    const app = await startTestServer({ env: { SHUTDOWN_GRACE_MS: String(GRACE_MS) } });
    const { token } = await createMember(app);
    // A browser's socket: reconnects by itself, and moves when asked (app/lib/realtime-connection.ts). Its own
    // reconnection delay is set far above anything a busy machine adds (10 s, no randomness), so "at once" below is a
    // bound of half that delay rather than a few milliseconds that a loaded CI runner can miss.
    const RECONNECTION_DELAY_MS = 10_000;
    const socket = io(app.url, { auth: { token }, transports: ["websocket"], forceNew: true, reconnectionDelay: RECONNECTION_DELAY_MS, randomizationFactor: 0 });
    moveWhenAsked(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("ready", () => resolve());
      socket.once("connect_error", reject);
    });
    const timeline: Array<[string, number]> = [];
    socket.on(RealtimeEvent.move, () => timeline.push(["move", Date.now()]));
    socket.on("disconnect", () => timeline.push(["disconnect", Date.now()]));
    socket.io.on("reconnect_attempt", () => timeline.push(["reconnect attempt", Date.now()]));

    const signalled = Date.now();
    const closed = app.close().then(() => timeline.push(["closed", Date.now()]));
    // Out of rotation at once, still serving its sockets meanwhile; a new session's handshake is a 503, which the
    // load balancer retries on another replica (engine.io's own refusal would be a 403, which it does not).
    expect((await freshGet(`${app.url}/readyz`)).status).toBe(503);
    const handshake = await freshGet(`${app.url}/socket.io/?EIO=4&transport=polling`);
    expect(handshake.status).toBe(503);
    expect(handshake.headers["retry-after"]).toBe("1");
    expect(handshake.body).toBe("サーバーを再起動しています。少し待ってからもう一度お試しください");

    await closed;
    const at = (what: string) => timeline.find(([name]) => name === what)?.[1];
    // The sockets stayed through the grace (read from the timeline, not from a check at a fixed moment, which a slow
    // machine's requests above could overtake), were told after it, and left at once: a client that ignored the
    // message would have been cut SOCKET_MOVE.waitMs after it.
    expect(at("move")! - signalled).toBeGreaterThanOrEqual(GRACE_MS - 20);
    expect(at("disconnect")! - signalled).toBeGreaterThanOrEqual(GRACE_MS - 20);
    expect(at("disconnect")! - at("move")!).toBeLessThan(SOCKET_MOVE.waitMs / 2);
    // The replica waited for its sockets to leave, not for SOCKET_MOVE.waitMs after telling them.
    expect(at("closed")! - at("move")!).toBeLessThan(SOCKET_MOVE.waitMs);
    // Trying again without the reconnection delay.
    await expect.poll(() => at("reconnect attempt"), { timeout: RECONNECTION_DELAY_MS / 2 }).toBeDefined();
    expect(at("reconnect attempt")! - at("disconnect")!).toBeLessThan(RECONNECTION_DELAY_MS / 2);
    socket.close();
  });
});

describe("the development server as a process (npm run dev)", () => {
  // It reads PGlite whatever the run's engine, so it runs once: in the PGlite run.
  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    "serves the pages through Vite with the demo data, and stops on SIGTERM",
    async () => {
      const server = startProcess(path.resolve("node_modules/.bin/tsx"), ["server/index.ts"], { NODE_ENV: "development", PORT: "0", DATA_DIR: tempDir() });
      const [, port] = await server.waitFor(/GamerMatch: http:\/\/localhost:(\d+) \(development, pglite\)/, 60_000);
      // Every page goes through Vite's SSR runner, which loads the app's modules (the logger among them) itself.
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status, server.output()).toBe(200);
      expect(await home.text()).toContain("Apex Legends");
      expect((await fetch(`http://127.0.0.1:${port}/login`)).status).toBe(200);
      // tsx hands the signal to the server it runs and ends with 143 itself; the pretty log's worker may not flush the
      // last line, so the test asks only that the server heard the signal and the process ended.
      server.child.kill("SIGTERM");
      await server.exited;
      expect(server.output()).toContain("server: SIGTERM, finishing requests and closing");
    },
    120_000,
  );
});
