import { randomUUID } from "node:crypto";
import { createClient, type Session } from "@supabase/supabase-js";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { signAnonKey } from "../../app/infra/auth/jwt";
import { USER_AGENT_MAX } from "../../app/lib/constants";
import { loadSessionList } from "../../app/models/auth/session-list.server";
import { createMember, PASSWORD } from "../support/auth";
import { CookieJar } from "../support/cookies";
import { startTestServer, type TestServer } from "../support/server";
import { connectSocket, settle } from "../support/sockets";

/**
 * 「ログイン中の端末」 on /settings/security (docs/product.md#sessions): each sign-in's browser and address recorded
 * however the session began (the login form, through supabase-js on the server; supabase-js straight at /auth/v1),
 * listed for the account with this one marked, and ended one at a time or all but this one, with plain form posts
 * and the cookies as a browser without JavaScript sends them. An ended session's tokens and sockets are refused.
 */

const UA = {
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  safariIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  firefoxAndroid: "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
};

let app: TestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app?.close();
});

/** A browser without JavaScript signed in through the login form: its page requests carry its cookies and its User-Agent. */
async function browserSignIn(email: string, userAgent: string) {
  const jar = new CookieJar();
  const login = await app.request("/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": userAgent },
    body: new URLSearchParams({ email, password: PASSWORD }),
  });
  expect(login.status).toBe(302);
  jar.store(login);
  const page = async (pathname: string, init: RequestInit = {}) => {
    const response = await app.request(pathname, { ...init, headers: { ...init.headers, "User-Agent": userAgent, Cookie: jar.header() } });
    jar.store(response);
    return response;
  };
  /** A plain form post to the session list's action, as the page's forms send it. */
  const post = (fields: Record<string, string>) =>
    page("/settings/security/sessions", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  return { page, post };
}
type Browser = Awaited<ReturnType<typeof browserSignIn>>;

/** supabase-js on another device, signed in straight against /auth/v1 with that device's User-Agent. */
async function deviceSignIn(email: string, userAgent: string) {
  const supabase = createClient(app.url, await signAnonKey(app.config.SUPABASE_JWT_SECRET!), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { "User-Agent": userAgent } },
    realtime: { transport: WebSocket as never },
  });
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  if (error || !data.session) throw error ?? new Error("no session");
  return { supabase, session: data.session };
}

/** The session list's rows as the page renders them, each with its text and its form's session id. */
async function rowsOf(browser: Browser) {
  const response = await browser.page("/settings/security");
  expect(response.status).toBe(200);
  const html = await response.text();
  const rows = [...html.matchAll(/<li[^>]*data-testid="session-row"[^>]*>([\s\S]*?)<\/li>/g)].map(([, row]) => ({
    text: row!.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim(),
    sessionId: /name="sessionId" value="([^"]+)"/.exec(row!)?.[1] ?? null,
  }));
  return { html, rows };
}

const claimsOf = (session: Session) => JSON.parse(Buffer.from(session.access_token.split(".")[1]!, "base64url").toString()) as { session_id: string };
const userEndpoint = (token: string) => app.request("/auth/v1/user", { headers: { Authorization: `Bearer ${token}` } });
const disconnected = (socket: Socket, ms = 5_000) =>
  new Promise<void>((resolve, reject) => {
    if (!socket.connected) return resolve();
    const timer = setTimeout(() => reject(new Error(`the socket stayed connected for ${ms} ms`)), ms);
    socket.once("disconnect", () => {
      clearTimeout(timer);
      resolve();
    });
  });
async function socketOf(token: string) {
  const socket = await connectSocket(app.url, token);
  sockets.push(socket);
  return socket;
}

describe("「ログイン中の端末」", () => {
  it("records each sign-in's browser and address, and lists the live ones with this device first and marked", async () => {
    const member = await createMember(app, "端末一覧");
    const windows = await browserSignIn(member.email, UA.chromeWindows);
    const iphone = await deviceSignIn(member.email, UA.safariIphone);

    const stored = await app.database.db.selectFrom("auth_sessions").select(["id", "user_agent", "ip"]).where("user_id", "=", member.id).execute();
    expect(stored.find((row) => row.id === claimsOf(iphone.session).session_id)).toMatchObject({ user_agent: UA.safariIphone, ip: expect.stringMatching(/127\.0\.0\.1$/) });
    // Signed in through the login form, the session is the browser's, not the server's supabase-js's.
    expect(stored.some((row) => row.user_agent === UA.chromeWindows)).toBe(true);

    const { rows } = await rowsOf(windows);
    // The sign-up's session (supabase-js in Node, no browser) too, as 不明.
    expect(rows).toHaveLength(3);
    expect(rows[0]!.text).toMatch(/^Chrome · Windows この端末 ログイン \d{4}\/\d\d\/\d\d \d\d:\d\d 最終利用 \d{4}\/\d\d\/\d\d \d\d:\d\d$/);
    expect(rows[0]!.sessionId).toBeNull(); // this device has no 「ログアウト」 of its own here
    expect(rows.find((row) => row.sessionId === claimsOf(iphone.session).session_id)?.text).toMatch(/^Safari · iPhone ログイン .* ログアウト ：Safari · iPhone（.*にログイン）$/);
    expect(rows.some((row) => row.text.startsWith("不明なブラウザ · 不明な端末"))).toBe(true);
    expect(rows.filter((row) => row.text.includes("この端末"))).toHaveLength(1);
  });

  it("keeps a User-Agent to USER_AGENT_MAX characters", async () => {
    const member = await createMember(app, "長い端末");
    await deviceSignIn(member.email, `${UA.firefoxAndroid} ${"x".repeat(2000)}`);
    const row = await app.database.db.selectFrom("auth_sessions").select("user_agent").where("user_id", "=", member.id).orderBy("created_at", "desc").limit(1).executeTakeFirstOrThrow();
    expect(row.user_agent).toHaveLength(USER_AGENT_MAX);
    expect(row.user_agent!.startsWith(UA.firefoxAndroid)).toBe(true);
  });

  it("「ログアウト」 of one device ends that session, its tokens and its socket, and no other", async () => {
    const member = await createMember(app, "一台ずつ");
    const windows = await browserSignIn(member.email, UA.chromeWindows);
    const iphone = await deviceSignIn(member.email, UA.safariIphone);
    const android = await deviceSignIn(member.email, UA.firefoxAndroid);
    const iphoneSocket = await socketOf(iphone.session.access_token);
    const androidSocket = await socketOf(android.session.access_token);
    const iphoneId = claimsOf(iphone.session).session_id;

    const answer = await windows.post({ intent: "sign-out-session", sessionId: iphoneId });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/settings/security");
    await disconnected(iphoneSocket);

    const { html, rows } = await rowsOf(windows);
    expect(html).toContain("選んだ端末をログアウトしました");
    expect(rows.map((row) => row.sessionId)).not.toContain(iphoneId);
    expect(rows.some((row) => row.text.startsWith("Firefox · Android"))).toBe(true);

    expect((await userEndpoint(iphone.session.access_token)).status).toBe(403);
    expect((await app.request("/api/auth/me", { headers: { Authorization: `Bearer ${iphone.session.access_token}` } })).status).toBe(401);
    expect((await iphone.supabase.auth.refreshSession({ refresh_token: iphone.session.refresh_token })).error?.status).toBe(400);
    await expect(connectSocket(app.url, iphone.session.access_token)).rejects.toThrow("unauthorized");
    // The others go on: their tokens, their refresh, and their sockets, left open (one the server closes stays closed).
    await settle();
    expect(androidSocket.connected).toBe(true);
    expect((await userEndpoint(android.session.access_token)).status).toBe(200);
    expect((await android.supabase.auth.refreshSession({ refresh_token: android.session.refresh_token })).error).toBeNull();
  });

  it("someone else's session, an unknown one, or this one is refused with the page's error, and nothing ends", async () => {
    const member = await createMember(app, "持ち主");
    const windows = await browserSignIn(member.email, UA.chromeWindows);
    const stranger = await createMember(app, "他人");
    const strangers = await deviceSignIn(stranger.email, UA.safariIphone);
    const before = await app.database.db.selectFrom("auth_sessions").select(["id", "revoked_at"]).orderBy("id").execute();

    for (const sessionId of [claimsOf(strangers.session).session_id, randomUUID()]) {
      const answer = await windows.post({ intent: "sign-out-session", sessionId });
      expect(answer.status).toBe(302);
      const { html } = await rowsOf(windows);
      expect(html).toContain("その端末は見つかりません。すでにログアウトしている可能性があります。");
    }
    const current = (await rowsOf(windows)).rows[0]!;
    expect(current.text).toContain("この端末");
    const ownId = (await app.database.db.selectFrom("auth_sessions").select("id").where("user_id", "=", member.id).where("user_agent", "=", UA.chromeWindows).executeTakeFirstOrThrow()).id;
    await windows.post({ intent: "sign-out-session", sessionId: ownId });
    expect((await rowsOf(windows)).html).toContain("この端末は、画面上部の「ログアウト」からログアウトしてください");

    expect(await app.database.db.selectFrom("auth_sessions").select(["id", "revoked_at"]).orderBy("id").execute()).toEqual(before);
    expect((await userEndpoint(strangers.session.access_token)).status).toBe(200);
  });

  it("「この端末以外からログアウト」 ends every other session and closes their sockets, this one's kept", async () => {
    const member = await createMember(app, "まとめて");
    const windows = await browserSignIn(member.email, UA.chromeWindows);
    const iphone = await deviceSignIn(member.email, UA.safariIphone);
    const android = await deviceSignIn(member.email, UA.firefoxAndroid);
    const androidSocket = await socketOf(android.session.access_token);
    const { accessToken } = (await (await windows.page("/api/auth/token")).json()) as { accessToken: string };
    const ownSocket = await socketOf(accessToken);
    expect((await rowsOf(windows)).html).toContain("この端末以外からログアウト");

    const answer = await windows.post({ intent: "sign-out-others" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/settings/security");
    await disconnected(androidSocket);

    const { html, rows } = await rowsOf(windows);
    expect(html).toContain("この端末以外のすべての端末からログアウトしました");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text).toContain("この端末");
    // Nothing left to sign out: the button goes, and the page says why.
    expect(html).not.toContain("この端末以外からログアウト</button>");
    expect(html).toContain("ほかにログインしている端末はありません。");
    for (const device of [iphone, android]) {
      expect((await userEndpoint(device.session.access_token)).status).toBe(403);
      expect((await device.supabase.auth.refreshSession({ refresh_token: device.session.refresh_token })).error?.status).toBe(400);
    }
    await expect(connectSocket(app.url, android.session.access_token)).rejects.toThrow("unauthorized");
    expect(ownSocket.connected).toBe(true);
    expect((await windows.page("/settings/security")).status).toBe(200);
  });

  it("refuses what the forms never send, answers a visit with the page, and a signed-out post with the login page", async () => {
    const member = await createMember(app, "不正な入力");
    const windows = await browserSignIn(member.email, UA.chromeWindows);
    const before = await app.database.db.selectFrom("auth_sessions").select(["id", "revoked_at"]).where("user_id", "=", member.id).orderBy("id").execute();
    const refused: Record<string, string>[] = [{ intent: "sign-out-session", sessionId: "not-a-uuid" }, { intent: "sign-out-session" }, { intent: "everything" }, {}, { intent: "sign-out-others\u0000" }];
    for (const fields of refused) {
      expect({ fields, status: (await windows.post(fields)).status }).toEqual({ fields, status: 400 });
    }
    expect(await app.database.db.selectFrom("auth_sessions").select(["id", "revoked_at"]).where("user_id", "=", member.id).orderBy("id").execute()).toEqual(before);

    const visit = await windows.page("/settings/security/sessions");
    expect(visit.status).toBe(302);
    expect(visit.headers.get("location")).toBe("/settings/security");
    const signedOut = await app.request("/settings/security/sessions", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "intent=sign-out-others" });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    const crossSite = await windows.page("/settings/security/sessions", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      body: "intent=sign-out-others",
    });
    expect(crossSite.status).toBe(403);
  });

  it("has no list to offer where the app is not the auth server (no session id)", async () => {
    const member = await createMember(app, "ホスト型");
    const user = { id: member.id, email: member.email, claims: {} as never, accessToken: member.token, sessionId: null, aal: "aal1" as const, secondStepPending: false };
    expect(await loadSessionList({ db: app.database.db, user })).toBeNull();
  });
});
