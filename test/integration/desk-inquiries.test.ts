import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getInquiry, listInquiries, replyToInquiry, setInquiryStatus } from "~/models/inquiry-desk.server";
import type { Operator } from "~/models/operator-audit.server";
import { createBrowserMember, uniqueEmail } from "../support/auth";
import { testEngine } from "../support/database";
import { createOperator, type DeskOperatorMember } from "../support/desk";
import { startTestMailServer, type TestMailServer } from "../support/mail";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The inquiries queue of the operators' desk (ADR 072) on whichever engine the run uses: an inquiry sent signed in is
 * linked to its account; the queue lists open ones first, oldest first; a reply is mailed once through the outbox
 * (a real SMTP server on loopback) with its row in the audit trail, in one transaction, and the same form posted twice,
 * even at once, is one reply and one mail; a closed inquiry takes no reply until reopened. Then the pages
 * /admin/inquiries and /admin/inquiries/{id} as a browser without JavaScript uses them: moderator and admin only.
 */

let app: TestServer;
let smtp: TestMailServer;
beforeAll(async () => {
  smtp = await startTestMailServer();
  app = await startTestServer({ seed: false, env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const db = () => app.database.db;
const operator: Operator = { id: randomUUID(), label: `desk-${randomUUID().slice(0, 8)}@example.jp` };

/** An inquiry as the /inquiry form stores it, sent by a visitor (or signed in, through the page). */
async function inquiry(fields: { email?: string; body?: string; name?: string } = {}) {
  const row = await db()
    .insertInto("inquiries")
    .values({ name: fields.name ?? "問い合わせ 太郎", email: fields.email ?? uniqueEmail("asker"), category: "coins", body: fields.body ?? "コインの購入について質問があります。" })
    .returning(["id", "email"])
    .executeTakeFirstOrThrow();
  return row;
}
const auditOf = (id: number) => db().selectFrom("operator_audit").selectAll().where("target_type", "=", "inquiry").where("target_id", "=", String(id)).orderBy("id").execute();
const outboxTo = (address: string) => db().selectFrom("mail_outbox").selectAll().where("to_address", "=", address).orderBy("id").execute();

/** The form's hidden honeypot fields of /inquiry, as a browser sends them back. */
async function honeypotFields(page: (path: string) => Promise<Response>) {
  const html = await (await page("/inquiry")).text();
  const validFrom = /name="from__confirm"[^>]*value="([^"]+)"/.exec(html)?.[1];
  expect(validFrom).toBeTruthy();
  return { name__confirm: "", from__confirm: validFrom! };
}

describe(`the inquiries desk's model (${testEngine})`, () => {
  it("links an inquiry sent signed in to the sender's account; a visitor's has none", async () => {
    const member = await createBrowserMember(app, "問い合わせる会員");
    const sent = await member.page("/inquiry", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, "Sec-Fetch-Site": "same-origin" },
      body: new URLSearchParams({ ...(await honeypotFields(member.page)), name: "会員 花子", email: member.email, category: "account", body: "ログインについて" }),
    });
    expect(sent.status).toBe(302);
    const stored = await db().selectFrom("inquiries").selectAll().where("email", "=", member.email).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: member.id, status: "open", handled_by: null });
    const visitor = await inquiry();
    const found = await getInquiry({ db: db(), id: stored.id });
    expect(found?.inquiry.sender).toEqual({ id: member.id, displayName: "問い合わせる会員" });
    expect((await getInquiry({ db: db(), id: visitor.id }))?.inquiry.sender).toBeNull();
    expect(await getInquiry({ db: db(), id: 2_000_000_000 })).toBeNull();
  });

  it("lists open inquiries first, oldest first; filters by status; shows the same address's earlier inquiries", async () => {
    const email = uniqueEmail("repeat");
    const first = await inquiry({ email, body: "一通目" });
    const second = await inquiry({ email: email.toUpperCase(), body: "二通目" });
    const third = await inquiry({ email, body: "三通目" });
    await setInquiryStatus({ db: db(), operator, inquiryId: first.id, status: "closed" });
    const { inquiries } = await listInquiries({ db: db() });
    const ids = inquiries.map((item) => item.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(third.id));
    const firstClosedAt = ids.indexOf(first.id);
    // Every open one before any other.
    expect(inquiries.slice(0, inquiries.findIndex((item) => item.status !== "open")).every((item) => item.status === "open")).toBe(true);
    if (firstClosedAt !== -1) expect(firstClosedAt).toBeGreaterThan(ids.indexOf(third.id));
    const closed = await listInquiries({ db: db(), status: "closed" });
    expect(closed.inquiries.map((item) => item.id)).toContain(first.id);
    expect(closed.inquiries.every((item) => item.status === "closed")).toBe(true);
    const detail = await getInquiry({ db: db(), id: third.id });
    expect(detail?.earlier.map((item) => item.body)).toEqual(["二通目", "一通目"]);
    expect(detail?.inquiry).toMatchObject({ status: "open", body: "三通目" });
  });

  it("a reply is mailed once through the outbox, marks the inquiry answered and leaves one audit row; the same key again writes nothing", async () => {
    const asked = await inquiry({ name: "返信 待子", body: "チケットの予約方法を教えてください。\n二行目です。" });
    const key = randomUUID();
    const reply = "ご連絡ありがとうございます。\nチケットのページから予約できます。";
    const replied = await replyToInquiry({ db: db(), operator, inquiryId: asked.id, body: reply, key });
    expect(replied.isNew).toBe(true);
    expect(await replyToInquiry({ db: db(), operator, inquiryId: asked.id, body: reply, key })).toEqual({ replyId: replied.replyId, isNew: false });

    const mail = await smtp.waitFor(asked.email, { timeoutMs: 10_000 });
    expect(mail.subject).toBe("【GamerMatch】お問い合わせへの回答");
    expect(mail.text).toContain("返信 待子 様");
    expect(mail.text).toContain("チケットのページから予約できます。");
    expect(mail.text).toContain("> チケットの予約方法を教えてください。");
    expect(mail.text).toContain("このメールへの返信ではお答えできません");
    expect(await outboxTo(asked.email)).toHaveLength(1);

    const detail = await getInquiry({ db: db(), id: asked.id });
    expect(detail?.inquiry).toMatchObject({ status: "answered", handledLabel: operator.label });
    expect(detail?.replies).toEqual([expect.objectContaining({ body: reply, operatorLabel: operator.label })]);
    const trail = await auditOf(asked.id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ kind: "inquiry_replied", operator_id: operator.id, operator_label: operator.label, reason: null, details: { replyId: replied.replyId, to: asked.email, statusBefore: "open" } });
    // Nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.to(asked.email)).toHaveLength(1);
  });

  it("the same reply posted twice at once is one reply, one mail, one audit row", async () => {
    const asked = await inquiry();
    const key = randomUUID();
    const results = await Promise.all([0, 1, 2].map(() => replyToInquiry({ db: db(), operator, inquiryId: asked.id, body: "同時に押された返信", key })));
    expect(results.filter((result) => result.isNew)).toHaveLength(1);
    expect(new Set(results.map((result) => result.replyId)).size).toBe(1);
    expect(await outboxTo(asked.email)).toHaveLength(1);
    expect(await auditOf(asked.id)).toHaveLength(1);
    expect(await db().selectFrom("inquiry_replies").select("id").where("inquiry_id", "=", asked.id).execute()).toHaveLength(1);
  });

  it("a closed inquiry takes no reply until it is reopened; close and reopen name the operator and are in the trail; unknown ones are 404", async () => {
    const asked = await inquiry();
    const kinds = async () => (await auditOf(asked.id)).map((row) => row.kind);
    expect(await setInquiryStatus({ db: db(), operator, inquiryId: asked.id, status: "closed" })).toEqual({ changed: true });
    expect(await setInquiryStatus({ db: db(), operator, inquiryId: asked.id, status: "closed" })).toEqual({ changed: false });
    await expect(replyToInquiry({ db: db(), operator, inquiryId: asked.id, body: "返信", key: randomUUID() })).rejects.toMatchObject({ status: 409, code: "inquiry_closed" });
    expect(await outboxTo(asked.email)).toEqual([]);
    // One row for the close: the second close and the refused reply wrote nothing.
    const [closed] = await auditOf(asked.id);
    expect(await kinds()).toEqual(["inquiry_closed"]);
    expect(closed).toMatchObject({ operator_id: operator.id, operator_label: operator.label, reason: null, details: { statusBefore: "open" } });
    expect(await setInquiryStatus({ db: db(), operator, inquiryId: asked.id, status: "open" })).toEqual({ changed: true });
    expect((await getInquiry({ db: db(), id: asked.id }))?.inquiry).toMatchObject({ status: "open", handledLabel: operator.label });
    expect((await replyToInquiry({ db: db(), operator, inquiryId: asked.id, body: "再開後の返信", key: randomUUID() })).isNew).toBe(true);
    expect(await kinds()).toEqual(["inquiry_closed", "inquiry_reopened", "inquiry_replied"]);
    expect((await auditOf(asked.id))[1]).toMatchObject({ details: { statusBefore: "closed" } });
    await expect(replyToInquiry({ db: db(), operator, inquiryId: 2_000_000_000, body: "返信", key: randomUUID() })).rejects.toMatchObject({ status: 404 });
    await expect(setInquiryStatus({ db: db(), operator, inquiryId: 2_000_000_000, status: "closed" })).rejects.toMatchObject({ status: 404 });
  });

  it("an operator's 31st post in 10 minutes is a 429 that writes nothing; another operator is not held back", async () => {
    const busy: Operator = { id: randomUUID(), label: `busy-${randomUUID().slice(0, 8)}@example.jp` };
    const asked = await inquiry();
    for (let n = 0; n < 30; n++) await setInquiryStatus({ db: db(), operator: busy, inquiryId: asked.id, status: n % 2 === 0 ? "closed" : "open" });
    await expect(replyToInquiry({ db: db(), operator: busy, inquiryId: asked.id, body: "返信", key: randomUUID() })).rejects.toMatchObject({ status: 429 });
    expect(await outboxTo(asked.email)).toEqual([]);
    expect((await auditOf(asked.id)).map((row) => row.kind)).toEqual(Array.from({ length: 30 }, (_, n) => (n % 2 === 0 ? "inquiry_closed" : "inquiry_reopened")));
    expect((await getInquiry({ db: db(), id: asked.id }))?.inquiry.status).toBe("open");
    expect((await replyToInquiry({ db: db(), operator, inquiryId: asked.id, body: "別の担当者の返信", key: randomUUID() })).isNew).toBe(true);
  });

  it("a reply that fails part way (an operator label the database refuses) rolls back: no reply, no mail, still open", async () => {
    const asked = await inquiry();
    const nobody: Operator = { id: null, label: "x".repeat(201) };
    await expect(replyToInquiry({ db: db(), operator: nobody, inquiryId: asked.id, body: "返信", key: randomUUID() })).rejects.toThrow();
    expect(await outboxTo(asked.email)).toEqual([]);
    expect((await getInquiry({ db: db(), id: asked.id }))?.inquiry.status).toBe("open");
  });
});

describe(`/admin/inquiries without JavaScript (${testEngine})`, () => {
  let moderator: DeskOperatorMember;
  beforeAll(async () => {
    moderator = await createOperator(app, ["moderator"], { displayName: "モデレーターさん" });
  });
  const html = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "");
  const keyOf = (page: string) => /name="key" value="([0-9a-f-]{36})"/.exec(page)![1]!;

  it("opens for moderators and admins; finance gets the 404 of an unknown path", async () => {
    const finance = await createOperator(app, ["finance"]);
    const asked = await inquiry();
    for (const path of ["/admin/inquiries", `/admin/inquiries/${asked.id}`]) {
      expect((await moderator.page(path)).status, path).toBe(200);
      expect((await finance.page(path)).status, path).toBe(404);
    }
    expect((await finance.post(`/admin/inquiries/${asked.id}`, { intent: "close" })).status).toBe(404);
    expect((await db().selectFrom("inquiries").select("status").where("id", "=", asked.id).executeTakeFirstOrThrow()).status).toBe("open");
    for (const path of ["/admin/inquiries/0", "/admin/inquiries/abc", "/admin/inquiries/99999999999", "/admin/inquiries/2000000000"]) expect((await moderator.page(path)).status, path).toBe(404);
    expect((await moderator.page("/admin/inquiries?status=bogus")).status).toBe(400);
    // The queue takes no posts: the unknown path's 404, as the desk's other read-only pages answer.
    expect((await moderator.post("/admin/inquiries?index", { intent: "close" })).status).toBe(404);
  });

  it("the queue filters by status; the page shows the message, the sender's account and earlier inquiries", async () => {
    const member = await createBrowserMember(app, "過去にも問い合わせた人");
    const older = await inquiry({ email: member.email, body: "前回の質問です" });
    const sent = await member.page("/inquiry", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, "Sec-Fetch-Site": "same-origin" },
      body: new URLSearchParams({ ...(await honeypotFields(member.page)), name: "会員 次郎", email: member.email, category: "tickets", body: "今回の質問です" }),
    });
    expect(sent.status).toBe(302);
    const latest = await db().selectFrom("inquiries").select("id").where("email", "=", member.email).orderBy("id", "desc").executeTakeFirstOrThrow();
    const queue = await html(await moderator.page("/admin/inquiries?status=open"));
    expect(queue).toContain(`href="/admin/inquiries/${latest.id}"`);
    expect(queue).toContain("今回の質問です");
    const detail = await html(await moderator.page(`/admin/inquiries/${latest.id}`));
    expect(detail).toContain("今回の質問です");
    expect(detail).toContain(member.email);
    expect(detail).toContain(`href="/admin/users/${member.id}"`);
    expect(detail).toContain("チケット・予約");
    expect(detail).toContain(`href="/admin/inquiries/${older.id}"`);
    expect(detail).toContain("前回の質問です");
  });

  it("a reply is required, then mailed once with its audit row and a toast; the same form posted again is the first", async () => {
    const asked = await inquiry({ name: "ページ 返信子", body: "退会の方法を教えてください" });
    const path = `/admin/inquiries/${asked.id}`;
    const key = keyOf(await html(await moderator.page(path)));
    const empty = await moderator.post(path, { intent: "reply", key, body: " " });
    expect(empty.status).toBe(400);
    expect(await html(empty)).toContain("入力してください");
    const long = await moderator.post(path, { intent: "reply", key, body: "あ".repeat(2001) });
    expect(long.status).toBe(400);
    expect(await html(long)).toContain("2000文字以内で入力してください");
    expect((await moderator.post(path, { intent: "reply", key: "not-a-key", body: "返信" })).status).toBe(400);
    expect(await outboxTo(asked.email)).toEqual([]);

    const replied = await moderator.post(path, { intent: "reply", key, body: "設定のアカウントから退会できます。" });
    expect(replied.status).toBe(302);
    expect(replied.headers.get("location")).toBe(path);
    const after = await html(await moderator.page(path));
    expect(after).toContain("返信をメールで送りました");
    expect(after).toContain("回答済み");
    expect(after).toContain("設定のアカウントから退会できます。");
    expect(keyOf(after)).not.toBe(key);
    expect((await moderator.post(path, { intent: "reply", key, body: "設定のアカウントから退会できます。" })).status).toBe(302);
    const mail = await smtp.waitFor(asked.email, { timeoutMs: 10_000 });
    expect(mail.text).toContain("ページ 返信子 様");
    expect(mail.text).toContain("設定のアカウントから退会できます。");
    expect(await outboxTo(asked.email)).toHaveLength(1);
    const trail = await auditOf(asked.id);
    expect(trail.map((row) => [row.kind, row.operator_id, row.operator_label])).toEqual([["inquiry_replied", moderator.id, `desk:${moderator.email}`]]);
  });

  it("the reply posted twice at once is mailed once", async () => {
    const asked = await inquiry();
    const path = `/admin/inquiries/${asked.id}`;
    const key = keyOf(await html(await moderator.page(path)));
    const answers = await Promise.all([0, 1].map(() => moderator.post(path, { intent: "reply", key, body: "二度押しされた返信" })));
    expect(answers.map((answer) => answer.status)).toEqual([302, 302]);
    expect(await outboxTo(asked.email)).toHaveLength(1);
    expect(await auditOf(asked.id)).toHaveLength(1);
  });

  it("close and reopen; a closed inquiry's page has no reply form and a reply posted to it is refused", async () => {
    const asked = await inquiry();
    const path = `/admin/inquiries/${asked.id}`;
    const key = keyOf(await html(await moderator.page(path)));
    expect((await moderator.post(path, { intent: "close" })).status).toBe(302);
    const closed = await html(await moderator.page(path));
    expect(closed).toContain("完了にしました");
    expect(closed).not.toContain('name="body"');
    const refused = await moderator.post(path, { intent: "reply", key, body: "返信" });
    expect(refused.status).toBe(409);
    expect(await html(refused)).toContain("完了したお問い合わせには返信できません");
    expect((await moderator.post(path, { intent: "archive" })).status).toBe(400);
    expect((await moderator.post(path, { intent: "reopen" })).status).toBe(302);
    expect(await html(await moderator.page(path))).toContain("未対応に戻しました");
    expect((await moderator.post("/admin/inquiries/2000000000", { intent: "close" })).status).toBe(404);
  });
});
