import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, signUp, supabaseFor, uniqueEmail } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";
import { signInDelayMs } from "../../server/auth/limits";

let app: TestServer;
beforeAll(async () => {
  // Behind a proxy, so tests can sign in "from" several addresses (X-Forwarded-For).
  app = await startTestServer({ seed: false, env: { TRUST_PROXY: "true" } });
});
afterAll(async () => {
  await app?.close();
});

const userEndpoint = (token: string) => app.request("/auth/v1/user", { headers: { Authorization: `Bearer ${token}` } });

describe("supabase-js against the local auth endpoints", () => {
  it("signs up, signs in, refreshes and signs out", async () => {
    const email = uniqueEmail();
    const { supabase, session } = await signUp(app, email);
    expect(session.user.email).toBe(email);
    expect(session.token_type).toBe("bearer");
    expect(session.expires_in).toBeGreaterThan(3500);

    const signIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    const signedIn = signIn.data.session!;
    expect(signedIn.user.id).toBe(session.user.id);

    const refreshed = await supabase.auth.refreshSession({ refresh_token: signedIn.refresh_token });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(signedIn.refresh_token);

    const me = await supabase.auth.getUser(refreshed.data.session!.access_token);
    expect(me.data.user?.email).toBe(email);

    const signedOut = await supabase.auth.signOut();
    expect(signedOut.error).toBeNull();
    expect((await userEndpoint(refreshed.data.session!.access_token)).status).toBe(403);
    const afterLogout = await supabase.auth.refreshSession({ refresh_token: refreshed.data.session!.refresh_token });
    expect(afterLogout.error?.status).toBe(400);
  });

  it("issues access tokens with the claims of docs/product.md#accounts", async () => {
    const { session } = await signUp(app);
    const claims = JSON.parse(Buffer.from(session.access_token.split(".")[1]!, "base64url").toString());
    expect(claims).toMatchObject({ sub: session.user.id, aud: "authenticated", role: "authenticated", email: session.user.email });
    expect(typeof claims.session_id).toBe("string");
    expect(claims.exp - claims.iat).toBe(3600);
    expect(JSON.parse(Buffer.from(session.access_token.split(".")[0]!, "base64url").toString()).alg).toBe("HS256");
  });

  it("refuses a wrong password and a taken email in Japanese", async () => {
    const { email } = await signUp(app);
    const supabase = await supabaseFor(app);
    const wrong = await supabase.auth.signInWithPassword({ email, password: "not-the-password" });
    expect(wrong.error?.status).toBe(400);
    expect(wrong.error?.message).toBe("メールアドレスまたはパスワードが正しくありません");
    const again = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(again.error?.status).toBe(422);
    expect(again.error?.message).toBe("このメールアドレスはすでに登録されています");
  });

  it("a reused refresh token revokes its session", async () => {
    const { supabase, session } = await signUp(app);
    const first = await supabase.auth.refreshSession({ refresh_token: session.refresh_token });
    const second = await supabase.auth.refreshSession({ refresh_token: first.data.session!.refresh_token });
    expect(second.error).toBeNull();
    // The first token was spent and its successor spent too: presenting it again is theft.
    const reuse = await supabase.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reuse.error?.status).toBe(400);
    const current = await supabase.auth.refreshSession({ refresh_token: second.data.session!.refresh_token });
    expect(current.error?.status).toBe(400);
    expect((await userEndpoint(second.data.session!.access_token)).status).toBe(403);
  });

  it("two tabs refreshing the same token at once both keep the session", async () => {
    const { supabase, session } = await signUp(app);
    const [a, b] = await Promise.all([
      supabase.auth.refreshSession({ refresh_token: session.refresh_token }),
      supabase.auth.refreshSession({ refresh_token: session.refresh_token }),
    ]);
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
  });

  /** The password grant as supabase-js sends it, from a given client address. */
  const signInFrom = async (address: string, email: string, password: string) => {
    const started = Date.now();
    const response = await app.request("/auth/v1/token?grant_type=password", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
      body: JSON.stringify({ email, password }),
    });
    return { status: response.status, body: (await response.json()) as { msg?: string }, ms: Date.now() - started };
  };

  it("stops an address after 10 failed sign-ins on an account, with a Japanese message", async () => {
    const { email } = await signUp(app);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await signInFrom("203.0.113.1", email, "wrong-password")).status).toBe(400);
    }
    const limited = await signInFrom("203.0.113.1", email, PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toBe("ログインの試行回数が多すぎます。しばらくしてから再度お試しください。");
  });

  it("does not let a stranger's failures lock the owner out: the right password from another address works, a little slower", async () => {
    const { email } = await signUp(app);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await signInFrom("203.0.113.2", email, "guess-" + attempt)).status).toBe(400);
    }
    expect((await signInFrom("203.0.113.2", email, PASSWORD)).status).toBe(429);
    const owner = await signInFrom("198.51.100.7", email, PASSWORD);
    expect(owner.status).toBe(200);
    // The account has failed 10 times in the window: every attempt on it now waits (growing with more failures).
    expect(owner.ms).toBeGreaterThanOrEqual(signInDelayMs(10) - 20);
  });

  it("stops an address that fails on many accounts", async () => {
    const accounts = await Promise.all(Array.from({ length: 11 }, () => signUp(app)));
    for (const { email } of accounts.slice(0, 10)) {
      expect((await signInFrom("203.0.113.3", email, "wrong-password")).status).toBe(400);
    }
    expect((await signInFrom("203.0.113.3", accounts[10]!.email, PASSWORD)).status).toBe(429);
    expect((await signInFrom("203.0.113.4", accounts[10]!.email, PASSWORD)).status).toBe(200);
  });

  it("slows the account down more with every failure, up to a ceiling, and never refuses it", () => {
    expect([0, 9, 10, 11, 12, 13, 14, 100].map(signInDelayMs)).toEqual([0, 0, 500, 1000, 2000, 4000, 5000, 5000]);
  });
});

describe("no silent no-ops in the auth API", () => {
  it("merges updateUser({ data }) into user_metadata as GoTrue does, read back through getUser()", async () => {
    const { supabase } = await signUp(app);
    const first = await supabase.auth.updateUser({ data: { theme: "dark", games: ["apex"] } });
    expect(first.error).toBeNull();
    expect(first.data.user?.user_metadata).toEqual({ theme: "dark", games: ["apex"] });

    // Key by key at the top level: a new key joins, a null removes one, the rest stay.
    const second = await supabase.auth.updateUser({ data: { games: ["valorant"], theme: null, region: "jp" } });
    expect(second.error).toBeNull();
    const { data } = await supabase.auth.getUser();
    expect(data.user?.user_metadata).toEqual({ games: ["valorant"], region: "jp" });
  });

  it("refuses a new password with a control character or a lone surrogate, at sign-up and on change, in Japanese", async () => {
    const supabase = await supabaseFor(app);
    // Text no column can hold is refused with the body, before any field is read (400); another control character by
    // the password's own rule (422, weak_password).
    for (const [password, status] of [
      [`${PASSWORD}\u0000`, 400],
      [`${PASSWORD}\ud800`, 400],
      [`\udfff${PASSWORD}`, 400],
      [`${PASSWORD}\u0007`, 422],
    ] as const) {
      const refused = await supabase.auth.signUp({ email: uniqueEmail(), password });
      expect(refused.error?.status, JSON.stringify(password)).toBe(status);
      expect(refused.error?.message).toBe("使用できない文字が含まれています");
    }
    const { supabase: signedIn, email } = await signUp(app);
    for (const password of [`${PASSWORD}\u0000x`, `${PASSWORD}\u001bx`]) {
      const change = await signedIn.auth.updateUser({ password, current_password: PASSWORD });
      expect(change.error?.status, JSON.stringify(password)).toBe(password.includes("\u0000") ? 400 : 422);
      expect(change.error?.message).toBe("使用できない文字が含まれています");
    }
    // The old password still signs in; any character one can type is welcome.
    expect((await (await supabaseFor(app)).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    expect((await signedIn.auth.updateUser({ password: "パスワード🎮 correct horse", current_password: PASSWORD })).error).toBeNull();
  });

  it("refuses a body with a NUL or a lone surrogate anywhere, under a field it reads or not, before writing anything", async () => {
    const email = uniqueEmail();
    for (const body of [
      { email, password: PASSWORD, data: "名前\u0000" },
      { email, password: PASSWORD, unknown: ["\ud800"] },
      { email, password: PASSWORD, ["キー\u0000"]: 1 },
    ]) {
      const response = await app.request("/auth/v1/signup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({ code: 400, error_code: "validation_failed", msg: "使用できない文字が含まれています" });
    }
    expect(await app.database.db.selectFrom("auth_users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
  });

  it("refuses metadata over the size limit, or not an object, and keeps what was stored", async () => {
    const { supabase } = await signUp(app);
    await supabase.auth.updateUser({ data: { keep: 1 } });
    const tooLarge = await supabase.auth.updateUser({ data: { blob: "x".repeat(9000) } });
    expect(tooLarge.error?.status).toBe(400);
    expect(tooLarge.error?.message).toBe("ユーザー情報が大きすぎます");
    const notObject = await supabase.auth.updateUser({ data: ["a"] as never });
    expect(notObject.error?.status).toBe(400);
    expect((await supabase.auth.getUser()).data.user?.user_metadata).toEqual({ keep: 1 });
  });

  it("answers a field it does not support with a 4xx in GoTrue's shape, never a 200 that stores nothing", async () => {
    const { supabase, session } = await signUp(app);
    const phone = await supabase.auth.updateUser({ phone: "+819012345678" });
    expect(phone.error?.status).toBe(422);
    expect(phone.error?.code).toBe("phone_provider_disabled");
    const response = await app.request("/auth/v1/user", {
      method: "PUT",
      headers: { Authorization: `Bearer ${session.access_token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ app_metadata: { role: "admin" } }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ code: 422, error_code: "validation_failed", msg: "「app_metadata」の変更には対応していません" });
    // /factors is served now (TOTP, test/integration/mfa.test.ts); SSO is GoTrue's and still not served here.
    const unknownRoute = await app.request("/auth/v1/sso", { method: "POST", headers: { Authorization: `Bearer ${session.access_token}` } });
    expect(unknownRoute.status).toBe(404);
    expect((await unknownRoute.json()).error_code).toBe("not_found");
  });

  it("lists its external providers at GET /settings as GoTrue does", async () => {
    const response = await app.request("/auth/v1/settings");
    expect(response.status).toBe(200);
    const settings = await response.json();
    expect(settings.external).toMatchObject({ email: true, phone: false, discord: false });
    expect(settings.disable_signup).toBe(false);
    expect(settings.mailer_autoconfirm).toBe(true);
  });
});

describe("identities as Supabase keeps them", () => {
  it("lists the account's e-mail identity through getUserIdentities(), with the provider in app_metadata", async () => {
    const { supabase, session, email } = await signUp(app);
    const { data, error } = await supabase.auth.getUserIdentities();
    expect(error).toBeNull();
    expect(data?.identities).toEqual([
      expect.objectContaining({
        provider: "email",
        user_id: session.user.id,
        email,
        identity_data: expect.objectContaining({ sub: session.user.id, email, email_verified: true }),
      }),
    ]);
    const { data: user } = await supabase.auth.getUser();
    expect(user.user?.app_metadata).toEqual({ provider: "email", providers: ["email"] });
  });
});
