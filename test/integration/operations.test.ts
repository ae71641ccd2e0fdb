import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createMember, uniqueEmail } from "../support/auth";
import { startBuiltServer, type BuiltServer } from "../support/built-server";
import { freshGet } from "../support/fresh-request";
import { startTestMailServer, type TestMailServer } from "../support/mail";
import { startTestServer, type TestServer } from "../support/server";
import { connectSocket } from "../support/sockets";
import { signAnonKey } from "../../app/infra/auth/jwt";

// Running it for real (docs/product.md#operations): the request log and what it must never hold, /metrics, /readyz, and
// the shutdown a deployment sends (SIGTERM).

const dirs: string[] = [];
const servers: BuiltServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-ops-"));
  dirs.push(dir);
  return dir;
};

/** The JSON lines of a server's output (anything else it printed is left out). */
const logLines = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the log of a built server", () => {
  let mail: TestMailServer;
  beforeAll(async () => {
    mail = await startTestMailServer();
  });
  afterAll(() => mail?.close());

  it("has one JSON line per request with its id, route, status, duration and user, and none of the secrets it saw", async () => {
    const jwtSecret = randomBytes(32).toString("base64url");
    const metricsToken = randomBytes(24).toString("base64url");
    const server = await startBuiltServer({ DATA_DIR: tempDir(), SUPABASE_JWT_SECRET: jwtSecret, SEED: "none", SMTP_URL: mail.url, METRICS_TOKEN: metricsToken });
    servers.push(server);
    const url = server.url;
    const password = `pw-${randomBytes(9).toString("base64url")}`;
    const email = uniqueEmail("log");
    const supabase = createClient(url, await signAnonKey(jwtSecret), {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });

    // A password (sign-up, the login form), an access token (bearer), a refresh token, cookies.
    const { data, error } = await supabase.auth.signUp({ email, password });
    expect(error).toBeNull();
    const { access_token: accessToken, refresh_token: refreshToken } = data.session!;
    const requestId = `ops-${randomUUID()}`;
    const bearer = { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" };
    const profile = await fetch(`${url}/api/user/profile`, { method: "POST", headers: { ...bearer, "X-Request-Id": requestId }, body: JSON.stringify({ displayName: "ログ確認" }) });
    expect(profile.ok).toBe(true);
    expect(profile.headers.get("x-request-id")).toBe(requestId);
    const generated = (await fetch(`${url}/healthz`)).headers.get("x-request-id");
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const refreshed = await supabase.auth.refreshSession({ refresh_token: refreshToken });
    expect(refreshed.error).toBeNull();
    const login = await fetch(`${url}/login`, { method: "POST", redirect: "manual", body: new URLSearchParams({ email, password }) });
    expect(login.status).toBe(302);
    const cookies = login.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
    expect(cookies.length).toBeGreaterThan(0);
    expect((await fetch(`${url}/mypage`, { headers: { Cookie: cookies.join("; ") } })).status).toBe(200);

    // A full bank account number (refused: nothing earned yet, but it went through the server).
    const accountNumber = String(1_000_000 + Math.floor(Math.random() * 8_999_999));
    const payout = await fetch(`${url}/api/payouts`, {
      method: "POST",
      headers: { ...bearer, "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary", accountNumber, accountHolder: "ゲーマー タロウ", coins: 1_000 }),
    });
    expect(payout.status).toBeGreaterThanOrEqual(400);
    expect(payout.status).toBeLessThan(500);

    // A one-time recovery token, in a link that is opened.
    await supabase.auth.resetPasswordForEmail(email);
    const recovery = await mail.waitFor(email);
    const link = new URL(recovery.links[0]!);
    const token = link.searchParams.get("token_hash")!;
    expect(token.length).toBeGreaterThan(10);
    expect((await fetch(`${url}${link.pathname}${link.search}`)).status).toBe(200);

    // The metrics token.
    expect((await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } })).status).toBe(200);

    await server.stop();
    const output = server.output();
    const secrets = { password, accessToken, refreshToken, refreshed: refreshed.data.session!.refresh_token, token, accountNumber, metricsToken, jwtSecret, ...Object.fromEntries(cookies.map((cookie, i) => [`cookie${i}`, cookie.split("=")[1]!])) };
    for (const [name, value] of Object.entries(secrets)) expect(output.includes(value), `${name} in the log`).toBe(false);
    const lines = logLines(output);
    const line = lines.find((entry) => entry.reqId === requestId);
    expect(line).toMatchObject({ level: "info", route: "routes/api.user.profile", userId: data.user!.id, req: { method: "POST", path: "/api/user/profile" }, res: { status: profile.status } });
    expect(line!.ms).toEqual(expect.any(Number));
    expect(lines.find((entry) => (entry.req as { path?: string } | undefined)?.path === "/auth/confirm")).toMatchObject({ route: "routes/_default.auth.confirm" });
    expect(lines.some((entry) => entry.event === "mail")).toBe(true);
  }, 60_000);
});

describe("/metrics and /readyz", () => {
  let app: TestServer;
  let bare: TestServer;
  const token = randomBytes(24).toString("base64url");
  beforeAll(async () => {
    [app, bare] = await Promise.all([startTestServer({ seed: false, env: { METRICS_TOKEN: token } }), startTestServer({ seed: false })]);
  });
  afterAll(async () => {
    await Promise.all([app?.close(), bare?.close()]);
  });

  const scrape = async () => {
    const response = await app.request("/metrics", { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    return response.text();
  };
  /** A series' value in Prometheus text: the line of `name` with every one of `labels` (0 when there is none). */
  const value = (text: string, name: string, labels: Record<string, string> = {}) => {
    const wanted = Object.entries(labels).map(([key, label]) => `${key}="${label}"`);
    const line = text.split("\n").find((candidate) => candidate.startsWith(`${name}${wanted.length ? "{" : " "}`) && wanted.every((pair) => candidate.includes(pair)));
    return Number(line?.split(" ").at(-1) ?? 0);
  };

  it("is not there without the token, with a wrong one, or when no token is configured", async () => {
    expect((await app.request("/metrics")).status).toBe(404);
    expect((await app.request("/metrics", { headers: { Authorization: `Bearer ${token.slice(1)}x` } })).status).toBe(404);
    expect((await app.request("/metrics", { headers: { Authorization: token } })).status).toBe(404);
    expect((await bare.request("/metrics", { headers: { Authorization: "Bearer undefined" } })).status).toBe(404);
  });

  it("has every series docs/product.md#operations lists, and they move after a chat message", async () => {
    const before = await scrape();
    for (const name of [
      "gm_http_requests_total",
      "gm_http_request_duration_seconds",
      "gm_open_sockets",
      "gm_chat_messages_total",
      "gm_chat_deliveries_total",
      "gm_db_pool_in_use",
      "gm_db_pool_waiting",
      "gm_overload_refusals_total",
      "gm_sweeper_lag_seconds",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_p99_seconds",
    ]) {
      expect(before, name).toContain(`# TYPE ${name} `);
    }

    const [alice, bob] = await Promise.all([createMember(app, "アリス"), createMember(app, "ボブ")]);
    const socket = await connectSocket(app.url, bob.token);
    try {
      const room = await (await alice.api("/api/chat/rooms", { json: { participantIds: [bob.id], type: "DIRECT", name: null } })).json();
      const sent = await alice.api("/api/chat/messages", { json: { roomId: room.data.chatRoom.id, content: "計測", messageType: "TEXT", metadata: null } });
      expect(sent.status).toBe(201);
      const after = await scrape();
      expect(value(after, "gm_chat_messages_total")).toBe(value(before, "gm_chat_messages_total") + 1);
      expect(value(after, "gm_chat_deliveries_total")).toBe(value(before, "gm_chat_deliveries_total") + 2);
      expect(value(after, "gm_open_sockets")).toBeGreaterThanOrEqual(1);
      const sentLabels = { route: "routes/api.chat.messages", method: "POST", status: "201" };
      expect(value(after, "gm_http_requests_total", sentLabels)).toBe(1);
      expect(value(after, "gm_http_request_duration_seconds_count", sentLabels)).toBe(1);
    } finally {
      socket.close();
    }
  });

  it("/readyz answers 200 with the database up and every migration applied", async () => {
    const response = await app.request("/readyz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, draining: false, db: "ok", migrations: "ok" });
  });
});

describe("SIGTERM", () => {
  const sockets: net.Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });

  it("on a built server mid-request: the request completes, /readyz and new requests get 503, sockets are told to reconnect, exit 0 within 10 s", async () => {
    const jwtSecret = randomBytes(32).toString("base64url");
    const server = await startBuiltServer({ DATA_DIR: tempDir(), SUPABASE_JWT_SECRET: jwtSecret, SEED: "none" });
    servers.push(server);
    const { port } = new URL(server.url);
    const supabase = createClient(server.url, await signAnonKey(jwtSecret), { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket as never } });
    const { data } = await supabase.auth.signUp({ email: uniqueEmail("term"), password: `pw-${randomUUID()}` });
    const socket = await connectSocket(server.url, data.session!.access_token);
    const socketClosed = new Promise<string>((resolve) => socket.on("disconnect", resolve));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    // A request whose body is still on its way when the signal comes.
    const raw = net.connect(Number(port), "127.0.0.1");
    sockets.push(raw);
    await new Promise<void>((resolve) => raw.on("connect", resolve));
    let reply = "";
    raw.on("data", (chunk) => (reply += chunk));
    const replied = new Promise<void>((resolve) => raw.on("end", resolve));
    const body = "name=a&email=a%40example.jp&category=other&body=x";
    await new Promise((resolve) => raw.write(`POST /inquiry HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`, resolve));
    // The head went out before this request's connection was opened: once /healthz is answered, the server has read it.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    const signalled = Date.now();
    process.kill(server.pid, "SIGTERM");
    let ready: Awaited<ReturnType<typeof freshGet>>;
    do ready = await freshGet(`${server.url}/readyz`);
    while (ready.status === 200 && Date.now() - signalled < 5_000);
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({ ok: false, draining: true });
    const refused = await freshGet(`${server.url}/`);
    expect(refused.status).toBe(503);
    expect(refused.body).toBe("サーバーを再起動しています。少し待ってからもう一度お試しください");
    const refusedApi = await freshGet(`${server.url}/api/notifications`);
    expect(refusedApi.status).toBe(503);
    expect(refusedApi.json<{ error: { code: string } }>().error.code).toBe("unavailable");

    raw.end(body);
    await replied;
    // The honeypot fields are missing, so the form is refused, but it was answered, not cut off.
    expect(reply).toMatch(/^HTTP\/1.1 400/);
    expect(await socketClosed).toBe("transport close");
    socket.close();
    expect(await server.exited, server.output()).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(logLines(server.output()).map((line) => line.msg)).toContain("server: closed");
  }, 30_000);
});
