import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserMember, formBrowser, PASSWORD } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";
import { totpCode } from "../support/totp";
import { runTwoStepCommand } from "../../server/two-step-command";

/**
 * 二段階認証 in the app (ADR 064), as a browser without JavaScript uses it: plain form posts to
 * /settings/security and /login/mfa with the session cookies. Enrolment reads the key from the page as a person would
 * type it into their app; a sign-in then owes its second step, and until it is given the session is signed out for
 * every page and 403 `insufficient_aal` for the API, money included.
 */

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

const sameOrigin = () => ({ "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, "Sec-Fetch-Site": "same-origin" });
const attribute = (html: string, pattern: RegExp) => pattern.exec(html)?.[1] ?? null;

const browser = () => formBrowser(app);

/** A member who turned 二段階認証 on through the page: its key, recovery codes and browser. */
async function memberWithApp() {
  const member = await createBrowserMember(app, "二段階さん");
  const post = (fields: Record<string, string>) => member.page("/settings/security", { method: "POST", headers: sameOrigin(), body: new URLSearchParams(fields) });
  const enrolled = await post({ intent: "enroll", friendlyName: "iPhone" });
  expect(enrolled.status).toBe(200);
  const html = await enrolled.text();
  expect(html).toMatch(/<svg[^>]*>.*<\/svg>/s);
  const secret = attribute(html, /data-secret="([A-Z2-7]+)"/)!;
  const factorId = attribute(html, /name="factorId" value="([0-9a-f-]{36})"/)!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // A mistyped code: refused on its field, and the same key shown again.
  const wrong = await post({ intent: "confirm", factorId, secret, friendlyName: "iPhone", code: totpCode(secret) === "000000" ? "111111" : "000000" });
  expect(wrong.status).toBe(400);
  const wrongHtml = await wrong.text();
  expect(wrongHtml).toContain("確認コードが正しくありません");
  expect(attribute(wrongHtml, /data-secret="([A-Z2-7]+)"/)).toBe(secret);
  const confirmed = await post({ intent: "confirm", factorId, secret, friendlyName: "iPhone", code: totpCode(secret) });
  expect(confirmed.status).toBe(200);
  const codes = [...(await confirmed.text()).matchAll(/<li>([a-z2-7]{5}-[a-z2-7]{5})<\/li>/g)].map((match) => match[1]!);
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  return { ...member, secret, factorId, codes };
}

/** Signs in with the password in a new browser: where it was sent, and the browser. */
async function signInWithPassword(email: string, redirectTo = "/settings/store/transfer") {
  const visitor = browser();
  const response = await visitor.post("/login", { email, password: PASSWORD, redirectTo });
  return { visitor, location: response.headers.get("location") };
}

const outbox = (userId: string) => app.database.db.selectFrom("mail_outbox").select(["kind"]).where("user_id", "=", userId).orderBy("id").execute();

describe("二段階認証 without JavaScript", () => {
  it("enrols from the page: the QR code inline, the key as text, ten recovery codes stored hashed, a mail sent", async () => {
    const member = await memberWithApp();
    // The key is sealed at rest: the database holds no usable secret (ADR 064).
    const stored = await app.database.db.selectFrom("auth_mfa_factors").select("secret").where("id", "=", member.factorId).executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^v1\./);
    expect(stored.secret).not.toContain(member.secret);
    const rows = await app.database.db.selectFrom("mfa_recovery_codes").select(["code_hash", "used_at"]).where("user_id", "=", member.id).execute();
    expect(rows).toHaveLength(10);
    for (const code of member.codes) expect(rows.some((row) => row.code_hash.includes(code.replace("-", "")))).toBe(false);
    expect((await outbox(member.id)).map((mail) => mail.kind)).toContain("mfa_enrolled");
    const page = await (await member.page("/settings/security")).text();
    expect(page).toContain("有効");
    expect(page).toContain("iPhone");
    // The codes were shown once: the page itself never shows them again.
    expect(page).not.toContain(member.codes[0]!);
  });

  it("a password sign-in then owes the code: pages send it to /login/mfa, the API answers 403 insufficient_aal, payouts included", async () => {
    const member = await memberWithApp();
    const { visitor, location } = await signInWithPassword(member.email);
    expect(location).toBe(`/login/mfa?${new URLSearchParams({ redirectTo: "/settings/store/transfer" })}`);
    const mypage = await visitor.page("/mypage");
    expect(mypage.status).toBe(302);
    expect(mypage.headers.get("location")).toBe(`/login/mfa?${new URLSearchParams({ redirectTo: "/mypage" })}`);
    const home = await (await visitor.page("/")).text();
    expect(home).toContain('data-auth-status="signedOut"');
    const payout = await visitor.page("/api/payouts", { method: "POST", headers: { "Content-Type": "application/json", Origin: app.url, "Sec-Fetch-Site": "same-origin" }, body: JSON.stringify({ amount: 1000 }) });
    expect(payout.status).toBe(403);
    expect(await payout.json()).toMatchObject({ success: false, error: { code: "insufficient_aal", message: "二段階認証を完了してください" } });
    const balance = await visitor.page("/api/coins/balance");
    expect(balance.status).toBe(403);

    const codePage = await visitor.page("/login/mfa?redirectTo=%2Fsettings%2Fstore%2Ftransfer");
    expect(codePage.status).toBe(200);
    const codeHtml = await codePage.text();
    expect(codeHtml).toMatch(/autocomplete="one-time-code"/i);
    expect(codeHtml).toMatch(/inputmode="numeric"/i);

    const wrong = await visitor.post("/login/mfa", { intent: "code", code: totpCode(member.secret) === "123456" ? "654321" : "123456", redirectTo: "/settings/store/transfer" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("確認コードが正しくありません");
    // The step of the code the enrolment used is spent: the next one (the app shows it within 30 s) is accepted.
    const right = await visitor.post("/login/mfa", { intent: "code", code: totpCode(member.secret, 1), redirectTo: "/settings/store/transfer" });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/settings/store/transfer");
    expect((await visitor.page("/mypage")).status).toBe(200);
    expect((await visitor.page("/api/coins/balance")).status).toBe(200);
  });

  it("a recovery code signs in once, turns the second step off and mails the owner; a spent or wrong code is refused", async () => {
    const member = await memberWithApp();
    const { visitor } = await signInWithPassword(member.email, "/mypage");
    const wrong = await visitor.post("/login/mfa", { intent: "recovery", recoveryCode: "aaaaa-aaaaa" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("リカバリーコードが正しくないか、すでに使われています");
    const used = await visitor.post("/login/mfa", { intent: "recovery", recoveryCode: member.codes[3]!.toUpperCase() });
    expect(used.status).toBe(302);
    expect(used.headers.get("location")).toBe("/settings/security");
    expect((await visitor.page("/mypage")).status).toBe(200);
    expect(await app.database.db.selectFrom("auth_mfa_factors").select("id").where("user_id", "=", member.id).execute()).toEqual([]);
    expect(await app.database.db.selectFrom("mfa_recovery_codes").select("id").where("user_id", "=", member.id).execute()).toEqual([]);
    expect((await outbox(member.id)).map((mail) => mail.kind)).toContain("mfa_recovery_used");
    // Signing in again needs no code now, and the spent code is no key to anything.
    const again = await signInWithPassword(member.email, "/mypage");
    expect(again.location).toBe("/mypage");
  });

  it("guessing recovery codes runs into the limit (429) before a sixth try", async () => {
    const member = await memberWithApp();
    const { visitor } = await signInWithPassword(member.email, "/mypage");
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await visitor.post("/login/mfa", { intent: "recovery", recoveryCode: `bbbbb-bbbb${"234567"[i]}` })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // The limit holds for a right code too: nothing was spent.
    expect((await visitor.post("/login/mfa", { intent: "recovery", recoveryCode: member.codes[0]! })).status).toBe(429);
    expect(await app.database.db.selectFrom("mfa_recovery_codes").select("id").where("user_id", "=", member.id).where("used_at", "is not", null).execute()).toEqual([]);
  });

  it("removes the app with its code: the account no longer owes a second step, and a mail says so", async () => {
    const member = await memberWithApp();
    const post = (fields: Record<string, string>) => member.page("/settings/security", { method: "POST", headers: sameOrigin(), body: new URLSearchParams(fields) });
    const noCode = await post({ intent: "remove", factorId: member.factorId, code: "12345" });
    expect(noCode.status).toBe(400);
    const removed = await post({ intent: "remove", factorId: member.factorId, code: totpCode(member.secret, 1) });
    expect(removed.status).toBe(200);
    expect(await (await member.page("/settings/security")).text()).toContain("未設定");
    expect((await outbox(member.id)).map((mail) => mail.kind)).toEqual(expect.arrayContaining(["mfa_enrolled", "mfa_removed"]));
    expect((await signInWithPassword(member.email, "/mypage")).location).toBe("/mypage");
  });

  it("another account's factor id is not found, and changes nothing", async () => {
    const owner = await memberWithApp();
    const other = await createBrowserMember(app, "ほかの人");
    const response = await other.page("/settings/security", { method: "POST", headers: sameOrigin(), body: new URLSearchParams({ intent: "remove", factorId: owner.factorId, code: totpCode(owner.secret, 1) }) });
    expect(response.status).toBe(404);
    expect(await app.database.db.selectFrom("auth_mfa_factors").select("id").where("id", "=", owner.factorId).execute()).toHaveLength(1);
  });

  it("/login/mfa is for a session that owes the code only: signed out goes to /login, signed in goes on", async () => {
    const signedOut = await app.request("/login/mfa?redirectTo=%2Fmypage");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/login?redirectTo=%2Fmypage");
    const member = await createBrowserMember(app);
    const signedIn = await member.page("/login/mfa?redirectTo=%2Fmypage");
    expect(signedIn.headers.get("location")).toBe("/mypage");
    // Its 「ログアウトして別のアカウントでログイン」 goes on to /login; a sign-out names no other place.
    const elsewhere = await browser().post("/logout", { next: "https://evil.example/" });
    expect(elsewhere.headers.get("location")).toBe("/");
    const toLogin = await member.page("/logout", { method: "POST", headers: sameOrigin(), body: new URLSearchParams({ next: "/login" }) });
    expect(toLogin.headers.get("location")).toBe("/login");
  });

  it("an operator turns it off for a gamer who lost the phone and every code: `npm run two-step -- off`, with a reason, and a mail", async () => {
    const member = await memberWithApp();
    const run = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runTwoStepCommand(args, { db: app.database.db, local: true, out: (line) => out.push(line), err: (line) => err.push(line) });
      return { code, out: out.join("\n"), err: err.join("\n") };
    };
    expect((await run("off", member.id)).code).toBe(1);
    expect((await run("off", "not-a-uuid", "--reason", "x")).code).toBe(1);
    const shown = await run("show", member.id);
    expect(shown.out).toContain("二段階認証: 有効  未使用のリカバリーコード: 10個");
    expect(shown.out).toContain("認証アプリ「iPhone」 確認済み");
    const off = await run("off", member.id, "--reason", "本人確認済み（問い合わせ #12）");
    expect(off).toMatchObject({ code: 0 });
    expect(off.out).toContain("認証アプリ 1件、リカバリーコード 10件を削除し、本人にメールで知らせました");
    expect((await outbox(member.id)).map((mail) => mail.kind)).toContain("mfa_reset");
    expect((await signInWithPassword(member.email, "/mypage")).location).toBe("/mypage");
  });
});
