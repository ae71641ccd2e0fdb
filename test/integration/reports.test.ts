import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { serverWithSockets } from "../support/sockets";

/**
 * Reports (通報, docs/product.md#trust-and-safety) through the real server, on whichever engine the run uses: each target type
 * can be reported, once per reporter and thing (the second answer is the first report), 20 new reports a day even
 * when they arrive at once, never of oneself nor of what the reporter cannot see (404, nothing written); the plain
 * form without JavaScript; a reporter sees only their own reports.
 */

const server = serverWithSockets({ seed: false });
const db = () => server.app.database.db;
const GAME = "report-test-game";

beforeAll(async () => {
  await db().insertInto("games").values({ slug: GAME, name: "通報テスト", name_kana: "つうほうてすと" }).execute();
});

type Body = Record<string, unknown>;
const report = (member: Member, body: Body) => member.api("/api/reports", { json: body });
const reportsOf = (member: { id: string }) => db().selectFrom("reports").selectAll().where("reporter_id", "=", member.id).orderBy("id").execute();
const errorOf = async (response: Response) => (await response.json()).error as { code: string; message: string; fieldErrors?: Record<string, string[]> };
/** A page's HTML without the comments React puts between adjacent text parts. */
const textOf = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "");
const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});

async function postOf(member: Member, isPublic = true) {
  const response = await member.api("/api/posts/create", { json: { content: "通報テストの投稿", imageUrl: null, isPublic } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { post: { id: string } }).post.id;
}
async function listingOf(member: Member) {
  const response = await member.api("/api/listings", { json: { title: "通報テストのチケット", gameSlug: GAME, pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 2 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { listing: { id: string } } }).data.listing.id;
}
async function roomOf(member: Member, other: Member) {
  const response = await member.api("/api/chat/rooms", { json: { participantIds: [other.id], type: "DIRECT", name: null } });
  expect(response.ok).toBe(true);
  return ((await response.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id;
}
async function messageOf(member: Member, roomId: string, content = "外で直接取引しませんか") {
  const response = await member.api("/api/chat/messages", { json: { roomId, content } });
  expect(response.status).toBe(201);
  return String(((await response.json()) as { data: { message: { id: number } } }).data.message.id);
}
/** A review written by `reviewer` (the buyer) of a completed booking with a new seller. */
async function reviewBy(reviewer: Member) {
  const seller = await createMember(server.app, "レビューされる出品者");
  const listingId = await listingOf(seller);
  expect((await reviewer.api("/api/coins/orders", { json: { packageId: 2 }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(201);
  const bought = await reviewer.api(`/api/listings/${listingId}/purchase`, { json: { units: 1, desiredStartTime: Date.now() + 60_000 }, headers: { "Idempotency-Key": randomUUID() } });
  expect(bought.status).toBe(201);
  const bookingId = ((await bought.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
  for (const [who, action] of [[seller, "accept"], [seller, "start"], [reviewer, "complete"]] as const) {
    expect((await who.api(`/api/tickets/${bookingId}/${action}`, { method: "POST", json: {} })).status, action).toBe(200);
  }
  const response = await reviewer.api("/api/reviews", { json: { bookingId, rating: 1, comment: "ひどい取引でした", tipAmount: 0 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { review: { id: string } } }).data.review.id;
}

describe("POST /api/reports", () => {
  it("reports each kind of thing (201) with its owner, and the same thing again answers the first report (200)", async () => {
    const [reporter, owner] = await Promise.all([createMember(server.app, "通報する人"), createMember(server.app, "通報される人")]);
    const roomId = await roomOf(reporter, owner);
    const targets: Array<[string, string]> = [
      ["user", owner.id],
      ["post", await postOf(owner)],
      ["chat_message", await messageOf(owner, roomId)],
      ["listing", await listingOf(owner)],
      ["review", await reviewBy(owner)],
    ];
    const first = new Map<string, number>();
    for (const [targetType, targetId] of targets) {
      const response = await report(reporter, { targetType, targetId, reason: "off_platform_payment", note: "  外部の振込に誘われました  " });
      expect(response.status, targetType).toBe(201);
      const body = await response.json();
      expect(body).toEqual({
        success: true,
        data: { report: { id: expect.any(Number), targetType, targetId, reason: "off_platform_payment", note: "外部の振込に誘われました", status: "open", createdAt: expect.any(String) } },
      });
      first.set(targetType, body.data.report.id);
    }
    const stored = await reportsOf(reporter);
    expect(stored.map((row) => [row.target_type, row.target_user_id, row.status])).toEqual(targets.map(([type]) => [type, owner.id, "open"]));

    // Again, with another reason: the first report, unchanged, and no second row.
    for (const [targetType, targetId] of targets) {
      const again = await report(reporter, { targetType, targetId, reason: "spam" });
      expect(again.status, targetType).toBe(200);
      expect((await again.json()).data.report).toMatchObject({ id: first.get(targetType), reason: "off_platform_payment", note: "外部の振込に誘われました" });
    }
    expect(await reportsOf(reporter)).toHaveLength(targets.length);
  });

  it("nobody reports themselves or their own things (422); nothing is written", async () => {
    const member = await createMember(server.app, "自分を通報する人");
    const other = await createMember(server.app, "相手");
    const roomId = await roomOf(member, other);
    for (const [targetType, targetId] of [
      ["user", member.id],
      ["post", await postOf(member)],
      ["chat_message", await messageOf(member, roomId)],
      ["listing", await listingOf(member)],
      ["review", await reviewBy(member)],
    ]) {
      const response = await report(member, { targetType, targetId, reason: "spam" });
      expect(response.status, targetType).toBe(422);
      expect(await errorOf(response)).toEqual({ code: "self_report", message: "自分自身や自分の投稿は通報できません" });
    }
    expect(await reportsOf(member)).toEqual([]);
  });

  it("what the reporter cannot see is not found (404), malformed ids too; nothing is written", async () => {
    const [reporter, owner, stranger] = await Promise.all([createMember(server.app, "見えない人"), createMember(server.app, "持ち主"), createMember(server.app, "他人")]);
    const othersRoom = await roomOf(owner, stranger);
    const othersMessage = await messageOf(owner, othersRoom);
    const subscribersOnly = await postOf(owner, false);
    const hiddenPost = await postOf(owner);
    await db().updateTable("posts").set({ hidden_at: new Date() }).where("id", "=", hiddenPost).execute();
    const archived = await listingOf(owner);
    expect((await owner.api(`/api/listings/${archived}`, { method: "PATCH", json: { status: "archived" } })).ok).toBe(true);
    // A room the reporter is in, but a notice of the product's, not a person's words.
    const ownRoom = await roomOf(reporter, owner);
    const notice = await db()
      .insertInto("chat_messages")
      .values({ room_id: ownRoom, sender_id: owner.id, content: "チケットが購入されました", message_type: "SYSTEM" })
      .returning("id")
      .executeTakeFirstOrThrow();

    const cases: Array<[string, string]> = [
      ["chat_message", othersMessage],
      ["chat_message", String(notice.id)],
      ["post", subscribersOnly],
      ["post", hiddenPost],
      ["listing", archived],
      ["user", randomUUID()],
      ["post", randomUUID()],
      ["listing", randomUUID()],
      ["review", randomUUID()],
      ["chat_message", "999999999"],
      ["user", "abc"],
      ["post", "1"],
      ["review", "' OR '1'='1"],
      ["chat_message", "-1"],
      ["chat_message", "0"],
      ["chat_message", "1.5"],
      ["chat_message", "9223372036854775808"],
      ["chat_message", owner.id],
      ["listing", `${randomUUID()}x`],
    ];
    for (const [targetType, targetId] of cases) {
      const response = await report(reporter, { targetType, targetId, reason: "harassment" });
      expect(response.status, `${targetType} ${targetId}`).toBe(404);
      expect(await errorOf(response)).toEqual({ code: "target_not_found", message: "通報する対象が見つかりません" });
    }
    expect(await reportsOf(reporter)).toEqual([]);
    // The same hidden post is still reportable by nobody but shown to its author: their own report is refused as theirs.
    expect((await report(owner, { targetType: "post", targetId: hiddenPost, reason: "spam" })).status).toBe(422);
  });

  it("bad input is a 400 with Japanese field errors, signed out a 401; nothing is written", async () => {
    const [reporter, owner] = await Promise.all([createMember(server.app, "入力を誤る人"), createMember(server.app, "相手")]);
    const cases: Array<[Body, string, string]> = [
      [{ targetType: "user", targetId: owner.id, reason: "bad" }, "reason", "選択してください"],
      [{ targetType: "user", targetId: owner.id }, "reason", "選択してください"],
      [{ targetType: "comment", targetId: owner.id, reason: "spam" }, "targetType", "選択肢から選んでください"],
      [{ targetType: "user", targetId: "", reason: "spam" }, "targetId", "入力してください"],
      [{ targetType: "user", targetId: owner.id, reason: "spam", note: "あ".repeat(501) }, "note", "500文字以内で入力してください"],
      [{ targetType: "user", targetId: owner.id, reason: "spam", note: "悪\u0000質" }, "note", "使用できない文字が含まれています"],
    ];
    for (const [body, field, message] of cases) {
      const response = await report(reporter, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).fieldErrors?.[field], JSON.stringify(body)).toEqual([message]);
    }
    const anonymous = await server.app.request("/api/reports", { method: "POST", body: JSON.stringify({ targetType: "user", targetId: owner.id, reason: "spam" }), headers: { "Content-Type": "application/json" } });
    expect(anonymous.status).toBe(401);
    expect((await server.app.request("/api/reports")).status).toBe(401);
    expect(await reportsOf(reporter)).toEqual([]);
  });

  it("20 new reports a day: the 21st is a 429, reports arriving at once never pass 20, a repeat still answers 200, older ones age out", async () => {
    const [reporter, owner] = await Promise.all([createMember(server.app, "たくさん通報する人"), createMember(server.app, "相手")]);
    const roomId = await roomOf(reporter, owner);
    const messages: string[] = [];
    for (let index = 0; index < 8; index += 1) messages.push(await messageOf(owner, roomId, `メッセージ${index}`));
    // 15 earlier reports today.
    await db()
      .insertInto("reports")
      .values(Array.from({ length: 15 }, () => ({ reporter_id: reporter.id, target_type: "user" as const, target_id: randomUUID(), target_user_id: owner.id, reason: "spam" as const })))
      .execute();

    const answers = await Promise.all(messages.map((targetId) => report(reporter, { targetType: "chat_message", targetId, reason: "spam" })));
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const refused = answers.find((response) => response.status === 429)!;
    expect(await errorOf(refused)).toEqual({ code: "rate_limited", message: "通報は1日20件までです。時間をおいてからお試しください" });
    expect(await reportsOf(reporter)).toHaveLength(20);

    // At the limit a repeat of a filed report is still that report; a new one is refused.
    const filed = (await reportsOf(reporter)).find((row) => row.target_type === "chat_message")!;
    expect((await report(reporter, { targetType: "chat_message", targetId: filed.target_id, reason: "spam" })).status).toBe(200);
    expect((await report(reporter, { targetType: "user", targetId: owner.id, reason: "spam" })).status).toBe(429);

    // A day later the earlier 15 no longer count.
    await db()
      .updateTable("reports")
      .set({ created_at: sql`now() - interval '25 hours'` as never })
      .where("reporter_id", "=", reporter.id)
      .where("target_type", "=", "user")
      .execute();
    expect((await report(reporter, { targetType: "user", targetId: owner.id, reason: "spam" })).status).toBe(201);
    expect(await reportsOf(reporter)).toHaveLength(21);
  });
});

describe("reports a reporter sees", () => {
  it("GET /api/reports and /settings/reports show the caller's own reports only, with whether they were decided, not how", async () => {
    const [first, second, owner] = await Promise.all([createBrowserMember(server.app, "一人目"), createBrowserMember(server.app, "二人目"), createMember(server.app, "相手")]);
    const postId = await postOf(owner);
    expect((await report(first, { targetType: "user", targetId: owner.id, reason: "harassment", note: "一人目のメモ" })).status).toBe(201);
    expect((await report(second, { targetType: "post", targetId: postId, reason: "spam", note: "二人目のメモ" })).status).toBe(201);
    await db().updateTable("reports").set({ status: "actioned", decided_at: new Date() }).where("reporter_id", "=", second.id).execute();

    const mine = (await (await first.api("/api/reports")).json()) as { success: boolean; data: { reports: Array<Record<string, unknown>> } };
    expect(mine).toEqual({
      success: true,
      data: { reports: [{ id: expect.any(Number), targetType: "user", targetId: owner.id, reason: "harassment", note: "一人目のメモ", status: "open", createdAt: expect.any(String) }] },
    });
    const theirs = (await (await second.api("/api/reports")).json()) as { data: { reports: Array<Record<string, unknown>> } };
    expect(theirs.data.reports).toEqual([expect.objectContaining({ targetType: "post", targetId: postId, status: "actioned" })]);
    expect(JSON.stringify(theirs)).not.toContain("一人目");

    const page = await second.page("/settings/reports");
    expect(page.status).toBe(200);
    const html = await textOf(page);
    expect(html).toContain("通報の履歴");
    expect(html).toContain("対応済み");
    expect(html).toContain("二人目のメモ");
    expect(html).not.toContain("一人目のメモ");
    const settings = await textOf(await second.page("/settings"));
    expect(settings).toContain('href="/settings/reports"');
  });
});

describe("/report without JavaScript", () => {
  it("the page shows the form; posting it files the report and goes back with a toast; a bad form is a 400 with the reasons", async () => {
    const [reporter, owner] = await Promise.all([createBrowserMember(server.app, "フォームで通報する人"), createMember(server.app, "相手")]);
    const postId = await postOf(owner);
    const pageUrl = `/report?${new URLSearchParams({ type: "post", id: postId, redirectTo: "/feed" })}`;
    const page = await reporter.page(pageUrl);
    expect(page.status).toBe(200);
    const html = await textOf(page);
    expect(html).toContain("投稿を通報する");
    for (const label of ["スパム・宣伝", "嫌がらせ・誹謗中傷", "不適切な内容", "外部での支払い・直接取引の誘い", "なりすまし", "その他"]) expect(html).toContain(label);
    expect(html).toMatch(/<input type="radio" name="reason" required=""[^>]* value="spam"/);
    expect(html).toContain('name="redirectTo" value="/feed"');

    const bad = await reporter.page(pageUrl, form({ targetType: "post", targetId: postId, note: "", redirectTo: "/feed" }));
    expect(bad.status).toBe(400);
    expect(await textOf(bad)).toContain("選択してください");
    expect(await reportsOf(reporter)).toEqual([]);

    const sent = await reporter.page(pageUrl, form({ targetType: "post", targetId: postId, reason: "inappropriate", note: "不快な画像です\r\n確認してください", redirectTo: "/feed" }));
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/feed");
    expect(await textOf(await reporter.page("/feed"))).toContain("通報を受け付けました");
    expect(await reportsOf(reporter)).toEqual([expect.objectContaining({ target_type: "post", target_id: postId, target_user_id: owner.id, reason: "inappropriate", note: "不快な画像です\n確認してください" })]);

    // Again: the first report, said so; a redirect elsewhere stays on this site.
    const again = await reporter.page(pageUrl, form({ targetType: "post", targetId: postId, reason: "spam", redirectTo: "https://evil.example/" }));
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/settings/reports");
    expect(await textOf(await reporter.page("/settings/reports"))).toContain("この内容はすでに通報を受け付けています");
    expect(await reportsOf(reporter)).toHaveLength(1);

    // Refused by the model: the form again with the reason.
    const self = await reporter.page("/report", form({ targetType: "user", targetId: reporter.id, reason: "spam", redirectTo: "/feed" }));
    expect(self.status).toBe(422);
    expect(await textOf(self)).toContain("自分自身や自分の投稿は通報できません");
  });

  it("a thing the viewer cannot see is a 404 page; a query that does not fit a 400; signed out, the login page first", async () => {
    const [reporter, owner, stranger] = await Promise.all([createBrowserMember(server.app, "見えない人"), createMember(server.app, "相手"), createMember(server.app, "他人")]);
    const othersMessage = await messageOf(owner, await roomOf(owner, stranger));
    expect((await reporter.page(`/report?type=chat_message&id=${othersMessage}`)).status).toBe(404);
    expect((await reporter.page(`/report?type=post&id=${randomUUID()}`)).status).toBe(404);
    expect((await reporter.page(`/report?type=post&id=abc`)).status).toBe(404);
    expect((await reporter.page(`/report?type=comment&id=${owner.id}`)).status).toBe(400);
    expect((await reporter.page("/report")).status).toBe(400);
    const form404 = await reporter.page("/report", form({ targetType: "chat_message", targetId: othersMessage, reason: "spam", redirectTo: "/feed" }));
    expect(form404.status).toBe(404);
    expect(await textOf(form404)).toContain("通報する対象が見つかりません");
    expect(await reportsOf(reporter)).toEqual([]);
    const signedOut = await server.app.request(`/report?type=user&id=${owner.id}`);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(`/login?${new URLSearchParams({ redirectTo: `/report?type=user&id=${owner.id}` })}`);
  });
});
