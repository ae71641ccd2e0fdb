import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, signUp, supabaseFor, uniqueEmail } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
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

  it("issues access tokens with the claims of PRODUCT §3", async () => {
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

  it("limits failed sign-ins to 10 per 15 minutes per account, with a Japanese message", async () => {
    const { email } = await signUp(app);
    const supabase = await supabaseFor(app);
    // Earlier tests failed from this same address; start its count afresh.
    await app.database.db.deleteFrom("rate_limit_events").execute();
    for (let attempt = 0; attempt < 10; attempt++) {
      const { error } = await supabase.auth.signInWithPassword({ email, password: "wrong-password" });
      expect(error?.status).toBe(400);
    }
    const limited = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(limited.error?.status).toBe(429);
    expect(limited.error?.message).toBe("ログインの試行回数が多すぎます。しばらくしてから再度お試しください。");
  });
});
