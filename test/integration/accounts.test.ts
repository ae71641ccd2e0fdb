import { createServerClient } from "@supabase/ssr";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { PASSWORD, signUp, supabaseFor, uniqueEmail } from "../support/auth";
import { CookieJar } from "../support/cookies";
import { startTestServer, type TestServer } from "../support/server";
import { signAnonKey } from "../../app/infra/auth/jwt";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../server/db/seed";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.close();
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});

/** A browser without JavaScript: forms posted by hand, cookies kept between requests. */
function browser() {
  const jar = new CookieJar();
  return {
    jar,
    async request(pathname: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      if (jar.cookies.size) headers.set("Cookie", jar.header());
      const response = await app.request(pathname, { ...init, headers });
      jar.store(response);
      return response;
    },
  };
}

const profileBody = { displayName: "ゲーマー太郎", bio: "APEXとスプラをやってます", games: [{ slug: "apex-legends", rank: "ダイヤ" }, { slug: "splatoon-3" }] };

describe("accounts through plain HTML forms", () => {
  it("sign up → profile setup → guarded page → sign out → redirected to login → back after sign-in", async () => {
    const visitor = browser();
    const email = uniqueEmail();

    const guarded = await visitor.request("/settings");
    expect(guarded.status).toBe(302);
    expect(guarded.headers.get("location")).toBe("/login?redirectTo=%2Fsettings");

    const signedUp = await visitor.request("/signup", form({ email, password: PASSWORD, redirectTo: "/settings" }));
    expect(signedUp.status).toBe(302);
    expect(signedUp.headers.get("location")).toBe("/mypage/gamer-edit?redirectTo=%2Fsettings");
    // Written by @supabase/ssr with the options of docs/product.md#api: path /, SameSite lax, 400 days, readable by scripts.
    const sessionCookie = signedUp.headers.getSetCookie().find((cookie) => cookie.startsWith("sb-127-auth-token="))!;
    expect(sessionCookie).toMatch(/; Path=\//);
    expect(sessionCookie).toMatch(/; SameSite=Lax/i);
    expect(sessionCookie).toMatch(/; Max-Age=34560000/);
    expect(sessionCookie).not.toMatch(/HttpOnly/i);

    // Signed in without a profile: guarded pages send the user to set it up.
    const noProfile = await visitor.request("/settings");
    expect(noProfile.headers.get("location")).toBe("/mypage/gamer-edit?redirectTo=%2Fsettings");

    const saved = await visitor.request(
      "/mypage/gamer-edit",
      form({ displayName: "ゲーマー花子", bio: "", "games[0].slug": "valorant", "games[0].rank": "イモータル", redirectTo: "/settings" }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/settings");
    const settings = await visitor.request("/settings");
    expect(settings.status).toBe(200);
    expect(await settings.text()).toContain(email);

    const signedOut = await visitor.request("/logout", form({}));
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/");
    const again = await visitor.request("/settings");
    expect(again.headers.get("location")).toBe("/login?redirectTo=%2Fsettings");

    const signedIn = await visitor.request("/login", form({ email, password: PASSWORD, redirectTo: "/settings" }));
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/settings");
    expect((await visitor.request("/settings")).status).toBe(200);
  });

  it("shows Japanese errors for a wrong password and a short one", async () => {
    const { email } = await signUp(app);
    const wrong = await browser().request("/login", form({ email, password: "not-it-at-all" }));
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("メールアドレスまたはパスワードが正しくありません");
    const short = await browser().request("/signup", form({ email: uniqueEmail(), password: "short" }));
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("パスワードは8文字以上で入力してください");
  });

  it("never redirects off-site after sign-in", async () => {
    const { email } = await signUp(app);
    const response = await browser().request("/login", form({ email, password: PASSWORD, redirectTo: "https://evil.example/" }));
    expect(response.headers.get("location")).toBe("/mypage");
  });

  it("refuses a cookie-authenticated POST from another origin and accepts the same origin", async () => {
    const visitor = browser();
    await visitor.request("/signup", form({ email: uniqueEmail(), password: PASSWORD }));
    const crossSite = await visitor.request("/logout", { ...form({}), headers: { ...form({}).headers, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const crossOrigin = await visitor.request("/logout", { ...form({}), headers: { ...form({}).headers, Origin: "https://evil.example" } });
    expect(crossOrigin.status).toBe(403);
    const sameOrigin = await visitor.request("/logout", { ...form({}), headers: { ...form({}).headers, Origin: app.url, "Sec-Fetch-Site": "same-origin" } });
    expect(sameOrigin.status).toBe(302);
  });
});

describe("signing out", () => {
  /** The access token of a cookie session, as the browser's supabase-js would read it. */
  const cookieToken = (visitor: ReturnType<typeof browser>) => {
    const raw = decodeURIComponent(visitor.jar.cookies.get("sb-127-auth-token")!);
    return (JSON.parse(Buffer.from(raw.replace(/^base64-/, ""), "base64url").toString()) as { access_token: string }).access_token;
  };
  const me = (token: string) => app.request("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } });

  it("from a page ends that session only; 「すべての端末からログアウト」 in /settings ends every one", async () => {
    const { supabase, email } = await signUp(app);
    await app.request("/api/user/profile", {
      method: "POST",
      headers: { Authorization: `Bearer ${(await supabase.auth.getSession()).data.session!.access_token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ displayName: "ふたつの端末" }),
    });
    // Another client of the same user (a phone, an API token) with its own session.
    const phone = await supabaseFor(app);
    const { data: phoneSignIn } = await phone.auth.signInWithPassword({ email, password: PASSWORD });
    const phoneToken = phoneSignIn.session!.access_token;

    const laptop = browser();
    expect((await laptop.request("/login", form({ email, password: PASSWORD }))).status).toBe(302);
    const laptopToken = cookieToken(laptop);
    expect((await me(laptopToken)).status).toBe(200);

    expect((await laptop.request("/logout", form({}))).headers.get("location")).toBe("/");
    expect((await laptop.request("/settings")).headers.get("location")).toBe("/login?redirectTo=%2Fsettings");
    expect((await me(laptopToken)).status).toBe(401);
    expect((await me(phoneToken)).status).toBe(200);
    // The phone's refresh token still works too: its session is untouched.
    const { data: refreshed, error } = await phone.auth.refreshSession();
    expect(error).toBeNull();
    const phoneTokenAfter = refreshed.session!.access_token;

    // Signed in again, the laptop ends every device's session from /settings.
    expect((await laptop.request("/login", form({ email, password: PASSWORD, redirectTo: "/settings" }))).status).toBe(302);
    const settings = await laptop.request("/settings");
    expect(await settings.text()).toContain("すべての端末からログアウト");
    const laptopToken2 = cookieToken(laptop);
    expect((await laptop.request("/logout", form({ scope: "global" }))).headers.get("location")).toBe("/");
    expect((await me(laptopToken2)).status).toBe(401);
    expect((await me(phoneTokenAfter)).status).toBe(401);
    expect((await phone.auth.refreshSession()).error).not.toBeNull();
  });

  it("treats an unknown scope as this session only", async () => {
    const { email } = await signUp(app);
    const phone = await supabaseFor(app);
    const phoneToken = (await phone.auth.signInWithPassword({ email, password: PASSWORD })).data.session!.access_token;
    const laptop = browser();
    await laptop.request("/login", form({ email, password: PASSWORD }));
    expect((await laptop.request("/logout", form({ scope: "everyone-please" }))).status).toBe(302);
    expect((await laptop.request("/settings")).status).toBe(302);
    const check = await me(phoneToken);
    expect(check.status).toBe(404); // signed in, no profile yet: the session lives
  });
});

describe("demo accounts", () => {
  it("sign in with the README's password and have a profile", async () => {
    const supabase = await supabaseFor(app);
    for (const account of DEMO_ACCOUNTS) {
      const { data, error } = await supabase.auth.signInWithPassword({ email: account.email, password: DEMO_PASSWORD });
      expect(error).toBeNull();
      const me = await (await app.request("/api/auth/me", { headers: { Authorization: `Bearer ${data.session!.access_token}` } })).json();
      expect(me.data.user.displayName).toBe(account.displayName);
    }
  });

  it("start with a conversation, so /chat is not empty", async () => {
    const supabase = await supabaseFor(app);
    const { data } = await supabase.auth.signInWithPassword({ email: DEMO_ACCOUNTS[0].email, password: DEMO_PASSWORD });
    const rooms = await (await app.request("/api/chat/rooms", { headers: { Authorization: `Bearer ${data.session!.access_token}` } })).json();
    expect(rooms.data.chatRooms).toHaveLength(1);
    expect(rooms.data.chatRooms[0].unreadCount).toBe(2);
    expect(rooms.data.chatRooms[0].lastMessage.sender.displayName).toBe("そら");
  });
});

describe("the API", () => {
  it("/api/auth/me answers 404 before profile setup and the user after POST /api/user/profile", async () => {
    const { session } = await signUp(app);
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const before = await app.request("/api/auth/me", { headers: auth });
    expect(before.status).toBe(404);
    expect(await before.json()).toMatchObject({ success: false, error: { code: "profile_not_found" } });

    const created = await app.request("/api/user/profile", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify(profileBody),
    });
    expect(created.status).toBe(201);
    const me = await app.request("/api/auth/me", { headers: auth });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body).toMatchObject({
      success: true,
      data: {
        user: { uid: session.user.id, displayName: "ゲーマー太郎", games: [{ slug: "apex-legends", rank: "ダイヤ" }, { slug: "splatoon-3", rank: "" }] },
        subscriptions: [],
      },
    });

    const updated = await app.request("/api/user/profile", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ displayName: "改名" }),
    });
    expect(updated.status).toBe(200);
    expect((await updated.json()).data.user).toMatchObject({ displayName: "改名", games: [] });
  });

  it("lists only active subscriptions in the me call", async () => {
    const { session: subscriber } = await signUp(app);
    const { session: active } = await signUp(app);
    const { session: expired } = await signUp(app);
    for (const s of [subscriber, active, expired]) {
      await app.request("/api/user/profile", {
        method: "POST",
        headers: { Authorization: `Bearer ${s.access_token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ displayName: "sub" }),
      });
    }
    await app.database.db
      .insertInto("subscriptions")
      .values([
        { subscriber_id: subscriber.user.id, subscribee_id: active.user.id, expires_at: new Date(Date.now() + 86_400_000) },
        { subscriber_id: subscriber.user.id, subscribee_id: expired.user.id, expires_at: new Date(Date.now() - 1000) },
      ])
      .execute();
    const me = await (await app.request("/api/auth/me", { headers: { Authorization: `Bearer ${subscriber.access_token}` } })).json();
    expect(me.data.subscriptions).toHaveLength(1);
    expect(me.data.subscriptions[0].subscribee.uid).toBe(active.user.id);
  });

  it("answers 400 in Japanese for an invalid profile and writes nothing", async () => {
    const { session } = await signUp(app);
    const headers = { Authorization: `Bearer ${session.access_token}`, "Content-Type": "application/json" };
    const bad = await app.request("/api/user/profile", { method: "POST", headers, body: JSON.stringify({ displayName: "", bio: "あ".repeat(501) }) });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.fieldErrors.displayName).toEqual(["入力してください"]);
    expect(body.error.fieldErrors.bio).toEqual(["500文字以内で入力してください"]);
    const unknownGame = await app.request("/api/user/profile", { method: "POST", headers, body: JSON.stringify({ displayName: "x", games: [{ slug: "no-such-game" }] }) });
    expect(unknownGame.status).toBe(400);
    const notJson = await app.request("/api/user/profile", { method: "POST", headers, body: "{" });
    expect(notJson.status).toBe(400);
    expect((await app.request("/api/auth/me", { headers })).status).toBe(404);
  });

  describe("refuses bad tokens with 401 on every route that needs a user", async () => {
    const routes = [
      ["GET", "/api/auth/me"],
      ["POST", "/api/user/profile"],
    ] as const;

    const tokens = async () => {
      const { session } = await signUp(app);
      const [header, payload, signature] = session.access_token.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
      const secret = new TextEncoder().encode(app.config.SUPABASE_JWT_SECRET!);
      const resign = (changes: Record<string, unknown>) =>
        new SignJWT({ ...claims, ...changes }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(secret);
      const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
      const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, sub: "00000000-0000-4000-8000-000000000000" })).toString("base64url");
      return {
        tampered: `${header}.${tamperedPayload}.${signature}`,
        expired: await resign({ exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 3660 }),
        "wrong audience": await resign({ aud: "anon" }),
        "alg none": none,
        "wrong key": await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("x".repeat(40))),
        garbage: "not-a-jwt",
      };
    };

    it("for each kind of bad token", async () => {
      for (const [kind, token] of Object.entries(await tokens())) {
        for (const [method, path] of routes) {
          const response = await app.request(path, {
            method,
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            ...(method === "POST" ? { body: JSON.stringify(profileBody) } : {}),
          });
          expect(response.status, `${kind} on ${method} ${path}`).toBe(401);
          expect((await response.json()).error.message).toBe("認証が必要です");
        }
      }
      for (const [method, path] of routes) {
        expect((await app.request(path, { method })).status, `no token on ${path}`).toBe(401);
      }
    });
  });

  it("a session large enough for two cookie chunks round-trips and authenticates", async () => {
    const jar = new Map<string, string>();
    const supabase = createServerClient(app.url, await signAnonKey(app.config.SUPABASE_JWT_SECRET!), {
      realtime: { transport: WebSocket as never },
      cookies: {
        getAll: () => [...jar].map(([name, value]) => ({ name, value })),
        setAll: (cookies) => cookies.forEach(({ name, value }) => (value ? jar.set(name, value) : jar.delete(name))),
      },
    });
    const { error } = await supabase.auth.signUp({ email: uniqueEmail(), password: PASSWORD, options: { data: { motto: "x".repeat(600) } } });
    expect(error).toBeNull();
    // (supabase-js also keeps PKCE code verifiers in cookies of their own.)
    const names = [...jar.keys()].filter((name) => /^sb-127-auth-token(\.\d+)?$/.test(name)).sort();
    expect(names).toEqual(["sb-127-auth-token.0", "sb-127-auth-token.1"]);
    expect(jar.get("sb-127-auth-token.0")!.length).toBeLessThanOrEqual(3180);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    // Authenticated (the profile is simply not set up yet), not 401.
    expect((await app.request("/api/auth/me", { headers: { Cookie: cookie } })).status).toBe(404);
  });

  it("refreshes an expired cookie session on the server and writes the new cookies", async () => {
    const visitor = browser();
    const email = uniqueEmail();
    await visitor.request("/signup", form({ email, password: PASSWORD }));
    // Age the stored session so its access token counts as expired.
    const name = "sb-127-auth-token";
    const raw = visitor.jar.cookies.get(name)!;
    const session = JSON.parse(Buffer.from(raw.replace(/^base64-/, ""), "base64url").toString());
    session.expires_at = Math.floor(Date.now() / 1000) - 10;
    visitor.jar.cookies.set(name, `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`);
    const response = await visitor.request("/api/auth/me");
    expect(response.status).toBe(404);
    expect(response.headers.getSetCookie().some((header) => header.startsWith("sb-127-auth-token"))).toBe(true);
    const refreshed = JSON.parse(Buffer.from(visitor.jar.cookies.get(name)!.replace(/^base64-/, ""), "base64url").toString());
    expect(refreshed.refresh_token).not.toBe(session.refresh_token);
  });
});
