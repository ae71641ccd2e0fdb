import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECOVER_RATE_LIMIT, RECOVERY_LINK_TTL_MS } from "~/lib/constants";
import { PASSWORD, signUp, supabaseFor, uniqueEmail } from "../support/auth";
import { startTestMailServer, type ReceivedMail, type TestMailServer } from "../support/mail";
import { startTestServer, type TestServer } from "../support/server";
import { connectSocket } from "../support/sockets";
import { testEngine } from "../support/database";

// Password recovery, password and address changes and sign-up confirmation (docs/product.md#accounts), through supabase-js
// itself against the local auth API, with every mail read from a real SMTP server on loopback.

let smtp: TestMailServer;
let app: TestServer;
// The server's clock: the real time, moved on by `offset` (one-time links expire by it).
let offset = 0;
const clock = () => new Date(Date.now() + offset);

beforeAll(async () => {
  smtp = await startTestMailServer();
  app = await startTestServer({ seed: false, clock, env: { SMTP_URL: smtp.url, TRUST_PROXY: "true" } });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

/** The token of a mail's /auth/confirm link, after checking where the link points. */
function linkToken(mail: ReceivedMail, type: string) {
  const link = new URL(mail.links[0]!);
  expect(link.pathname).toBe("/auth/confirm");
  expect(link.searchParams.get("type")).toBe(type);
  return link.searchParams.get("token_hash")!;
}

/** A fresh client for one "client address" (X-Forwarded-For), since the server trusts its proxy in these tests. */
async function clientFrom(ip: string) {
  const supabase = await supabaseFor(app);
  const headers = { "X-Forwarded-For": ip };
  return {
    recover: (email: string) =>
      app.request("/auth/v1/recover", { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ email }) }),
    supabase,
  };
}

describe(`password recovery (${testEngine})`, () => {
  it("mails a one-time link that works once, sets a new password without the old one and ends every other session", async () => {
    const { email, session } = await signUp(app);
    const supabase = await supabaseFor(app);
    const asked = await supabase.auth.resetPasswordForEmail(email);
    expect(asked.error).toBeNull();
    const mail = await smtp.waitFor(email, { timeoutMs: 5_000 });
    expect(mail.subject).toBe("【GamerMatch】パスワードの再設定");
    expect(mail.text).toContain("有効期限は1時間");
    expect(mail.html).toContain("/auth/confirm?token_hash=");
    const token = linkToken(mail, "recovery");
    expect(new URL(mail.links[0]!).origin).toBe(`http://localhost:${new URL(app.url).port}`);

    // Opening the link is harmless (mail scanners do): the page asks for one press.
    const page = await app.request(`/auth/confirm?token_hash=${token}&type=recovery`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("パスワードを再設定する");

    const verified = await supabase.auth.verifyOtp({ type: "recovery", token_hash: token });
    expect(verified.error).toBeNull();
    const recovery = verified.data.session!;
    expect(recovery.user.email).toBe(email);
    const changed = await supabase.auth.updateUser({ password: "a-brand-new-secret" });
    expect(changed.error).toBeNull();

    // The new password works, the old one does not, the session from before recovery is over.
    const other = await supabaseFor(app);
    expect((await other.auth.signInWithPassword({ email, password: "a-brand-new-secret" })).error).toBeNull();
    expect((await other.auth.signInWithPassword({ email, password: PASSWORD })).error?.status).toBe(400);
    expect((await app.request("/auth/v1/user", { headers: { Authorization: `Bearer ${session.access_token}` } })).status).toBe(403);
    expect((await other.auth.refreshSession({ refresh_token: session.refresh_token })).error?.status).toBe(400);
    // The recovery session stays, as an ordinary one: a second change asks for the current password.
    expect((await app.request("/auth/v1/user", { headers: { Authorization: `Bearer ${recovery.access_token}` } })).status).toBe(200);
    const again = await supabase.auth.updateUser({ password: "yet-another-secret" });
    expect(again.error?.code).toBe("current_password_required");

    // The link a second time: refused, nothing changes.
    const reused = await (await supabaseFor(app)).auth.verifyOtp({ type: "recovery", token_hash: token });
    expect(reused.error?.status).toBe(403);
    expect(reused.error?.message).toBe("リンクが無効か、有効期限が切れています。お手数ですが、もう一度お手続きください。");
    expect(reused.data.session).toBeNull();
  });

  it("refuses the link after an hour and a wrong token, changing nothing", async () => {
    const { email } = await signUp(app);
    const supabase = await supabaseFor(app);
    const before = smtp.to(email).length;
    await supabase.auth.resetPasswordForEmail(email);
    const token = linkToken(await smtp.waitFor(email, { after: before }), "recovery");

    const wrong = await supabase.auth.verifyOtp({ type: "recovery", token_hash: `${token.slice(0, -2)}xx` });
    expect(wrong.error?.status).toBe(403);
    const wrongType = await supabase.auth.verifyOtp({ type: "email_change", token_hash: token });
    expect(wrongType.error?.status).toBe(403);

    offset = RECOVERY_LINK_TTL_MS + 1_000;
    try {
      const late = await supabase.auth.verifyOtp({ type: "recovery", token_hash: token });
      expect(late.error?.status).toBe(403);
      expect(late.data.session).toBeNull();
    } finally {
      offset = 0;
    }
    // None of them changed anything: the password is the old one.
    expect((await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });

  it("answers an unknown address exactly as a known one, and mails nothing", async () => {
    const { email } = await signUp(app);
    const unknown = uniqueEmail("nobody");
    const known = await app.request("/auth/v1/recover", { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": "10.9.0.1" }, body: JSON.stringify({ email }) });
    const stranger = await app.request("/auth/v1/recover", { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": "10.9.0.2" }, body: JSON.stringify({ email: unknown }) });
    expect([known.status, await known.text()]).toEqual([stranger.status, await stranger.text()]);
    expect(known.status).toBe(200);
    await smtp.waitFor(email);
    // The outbox holds no mail to the unknown address, so none can arrive.
    const rows = await app.database.db.selectFrom("mail_outbox").select("to_address").where("to_address", "=", unknown).execute();
    expect(rows).toEqual([]);
    expect(smtp.to(unknown)).toEqual([]);
  });

  it("limits recovery mails per address and per client address, the same for unknown addresses", async () => {
    const { email } = await signUp(app);
    const unknown = uniqueEmail("nobody");
    for (const target of [email, unknown]) {
      const statuses: number[] = [];
      for (let i = 0; i <= RECOVER_RATE_LIMIT.perEmail; i += 1) statuses.push((await (await clientFrom(`10.1.${i}.1`)).recover(target)).status);
      expect(statuses).toEqual([...Array(RECOVER_RATE_LIMIT.perEmail).fill(200), 429]);
    }
    const limited = await (await clientFrom("10.1.99.1")).supabase.auth.resetPasswordForEmail(email);
    expect(limited.error?.status).toBe(429);
    expect(limited.error?.message).toBe("メールの送信回数が多すぎます。しばらくしてから再度お試しください。");

    const client = await clientFrom("10.2.0.1");
    const statuses: number[] = [];
    for (let i = 0; i <= RECOVER_RATE_LIMIT.perIp; i += 1) statuses.push((await client.recover(uniqueEmail("spray"))).status);
    expect(statuses).toEqual([...Array(RECOVER_RATE_LIMIT.perIp).fill(200), 429]);
  });
});

describe(`changing the password and the address (${testEngine})`, () => {
  it("changes the password only with the current one, and ends the other sessions", async () => {
    const { email, supabase, session } = await signUp(app);
    const elsewhere = await supabaseFor(app);
    const otherDevice = (await elsewhere.auth.signInWithPassword({ email, password: PASSWORD })).data.session!;
    const [thisSocket, otherSocket] = await Promise.all([connectSocket(app.url, session.access_token), connectSocket(app.url, otherDevice.access_token)]);

    const without = await supabase.auth.updateUser({ password: "new-password-1" });
    expect(without.error?.code).toBe("current_password_required");
    const wrong = await supabase.auth.updateUser({ password: "new-password-1", current_password: "not-it" });
    expect(wrong.error?.status).toBe(400);
    expect(wrong.error?.message).toBe("現在のパスワードが正しくありません");
    const same = await supabase.auth.updateUser({ password: PASSWORD, current_password: PASSWORD });
    expect(same.error?.code).toBe("same_password");
    const short = await supabase.auth.updateUser({ password: "short", current_password: PASSWORD });
    expect(short.error?.status).toBe(422);

    const changed = await supabase.auth.updateUser({ password: "new-password-1", current_password: PASSWORD });
    expect(changed.error).toBeNull();
    expect((await app.request("/auth/v1/user", { headers: { Authorization: `Bearer ${session.access_token}` } })).status).toBe(200);
    expect((await app.request("/auth/v1/user", { headers: { Authorization: `Bearer ${otherDevice.access_token}` } })).status).toBe(403);
    expect((await elsewhere.auth.signInWithPassword({ email, password: "new-password-1" })).error).toBeNull();
    // The other device's socket is closed by the server at once; this one's stays.
    await expect.poll(() => otherSocket.connected, { timeout: 1_000 }).toBe(false);
    expect(thisSocket.connected).toBe(true);
    thisSocket.close();
  });

  it("changes the address once the new one confirms it, and tells the old one", async () => {
    const { email, supabase } = await signUp(app);
    const next = uniqueEmail("moved");
    const asked = await supabase.auth.updateUser({ email: next });
    expect(asked.error).toBeNull();
    expect(asked.data.user?.email).toBe(email);
    expect(asked.data.user?.new_email).toBe(next);

    const notice = await smtp.waitFor(email);
    expect(notice.subject).toBe("【GamerMatch】メールアドレスの変更のお知らせ");
    expect(notice.text).toContain(next);
    const token = linkToken(await smtp.waitFor(next), "email_change");
    // Until confirmed, the old address is the account's.
    expect((await (await supabaseFor(app)).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    const confirmed = await (await supabaseFor(app)).auth.verifyOtp({ type: "email_change", token_hash: token });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data.session?.user.email).toBe(next);
    const fresh = await supabaseFor(app);
    expect((await fresh.auth.signInWithPassword({ email: next, password: PASSWORD })).error).toBeNull();
    expect((await fresh.auth.signInWithPassword({ email, password: PASSWORD })).error?.status).toBe(400);
  });

  it("refuses an address that is taken, and the same address", async () => {
    const { email: taken } = await signUp(app);
    const { email, supabase } = await signUp(app);
    expect((await supabase.auth.updateUser({ email: taken })).error?.status).toBe(422);
    expect((await supabase.auth.updateUser({ email })).error?.code).toBe("same_email");
  });
});

describe(`sign-up with AUTH_CONFIRM_EMAIL=true (${testEngine})`, () => {
  let confirming: TestServer;
  beforeAll(async () => {
    confirming = await startTestServer({ seed: false, env: { SMTP_URL: smtp.url, AUTH_CONFIRM_EMAIL: "true" } });
  });
  afterAll(async () => {
    await confirming?.close();
  });

  it("waits for the address: no session, sign-in refused, then the mailed link confirms and signs in", async () => {
    const supabase = await supabaseFor(confirming);
    const email = uniqueEmail("confirm");
    const signedUp = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session).toBeNull();
    expect(signedUp.data.user?.email_confirmed_at).toBeNull();

    const early = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.error?.code).toBe("email_not_confirmed");
    expect(early.error?.message).toBe("メールアドレスの確認が完了していません。確認メールのリンクを開いてください。");

    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe("【GamerMatch】メールアドレスの確認");
    const confirmed = await supabase.auth.verifyOtp({ type: "signup", token_hash: linkToken(mail, "signup") });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data.session?.user.email_confirmed_at).not.toBeNull();
    expect((await (await supabaseFor(confirming)).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });

  it("the sign-up form without JavaScript says to open the mail, and sets no session cookie", async () => {
    const email = uniqueEmail("form");
    const response = await confirming.request("/signup", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/signup?sent=1");
    expect(response.headers.get("Set-Cookie") ?? "").not.toContain("-auth-token=");
    expect(await (await confirming.request("/signup?sent=1")).text()).toContain("確認メールを送信しました");
    await smtp.waitFor(email);
  });

  it("answers a registered address like a new one, without a session", async () => {
    const supabase = await supabaseFor(confirming);
    const email = uniqueEmail("twice");
    await supabase.auth.signUp({ email, password: PASSWORD });
    await supabase.auth.verifyOtp({ type: "signup", token_hash: linkToken(await smtp.waitFor(email), "signup") });
    const again = await supabase.auth.signUp({ email, password: "someone-elses-try" });
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    expect((await (await supabaseFor(confirming)).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });
});
