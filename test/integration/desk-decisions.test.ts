import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "~/models/coins.server";
import { createMember, type Member } from "../support/auth";
import { testEngine } from "../support/database";
import { createOperator, sameOrigin, type DeskOperatorMember } from "../support/desk";
import { collect, serverWithSockets, settle } from "../support/sockets";
import { runModerationCommand } from "../../server/moderation-command";
import { TEST_OPERATOR } from "../support/operators";
import { creditPurchase } from "~/models/coins.server";

/**
 * The desk's decisions (ADR 071) through the real server, as a browser without JavaScript posts them, on whichever
 * engine the run uses: the queue groups a target's reports, the reported picture shows to the report roles only, and
 * each decision has the command line's effect (the same model functions): hide and dismiss settle the target's
 * reports and tell each reporter, a suspension cancels bookings with the escrow back and ends sessions, each decision
 * one audit row naming the operator. A decision needs a reason; a cross-site post is refused before the app.
 */

const GAME = "desk-test-game";
const server = serverWithSockets({ seed: false });
const app = () => server.app;
const db = () => server.app.database.db;
let moderator: DeskOperatorMember;
let finance: DeskOperatorMember;

beforeAll(async () => {
  await db().insertInto("games").values({ slug: GAME, name: "デスクテストゲーム", name_kana: "ですくてすとげーむ" }).execute();
  [moderator, finance] = [await createOperator(app(), ["moderator"], { displayName: "モデさん" }), await createOperator(app(), ["finance"], { displayName: "経理さん" })];
}, 120_000);

const photo = () => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg().toBuffer();

async function pictureMessage(sender: Member, others: Member[]) {
  const room = await sender.api("/api/chat/rooms", { json: { participantIds: others.map((m) => m.id), type: "GROUP", name: "通報部屋" } });
  const roomId = (await room.json()).data.chatRoom.id as string;
  const form = new FormData();
  form.append("type", "chat");
  form.append("file", new Blob([new Uint8Array(await photo())], { type: "image/jpeg" }), "photo.jpg");
  const uploaded = await app().request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${sender.token}` } });
  const uploadId = (await uploaded.json()).data.id as string;
  const sent = await sender.api("/api/chat/messages", { json: { roomId, messageType: "IMAGE", content: uploadId, metadata: { caption: "外で払って" } } });
  expect(sent.status).toBe(201);
  const { id } = await db().selectFrom("chat_messages").select("id").where("upload_id", "=", uploadId).executeTakeFirstOrThrow();
  return { messageId: String(id), uploadId };
}

const fileReport = (reporter: Member, targetType: string, targetId: string, reason: string, note = "") =>
  reporter.api("/api/reports", { json: { targetType, targetId, reason, note } }).then((response) => expect(response.status).toBe(201));

const decide = (operator: DeskOperatorMember, path: string, fields: Record<string, string>) => operator.post(path, fields);
const notificationsOf = (userId: string) => db().selectFrom("notifications").select(["type", "title"]).where("user_id", "=", userId).where("type", "=", "report").execute();
const auditOf = (targetId: string) => db().selectFrom("operator_audit").selectAll().where("target_id", "=", targetId).orderBy("id").execute();

async function listingOf(member: Member) {
  const response = await member.api("/api/listings", { json: { title: "デスクのチケット", gameSlug: GAME, description: "", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 3 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { listing: { id: string } } }).data.listing.id;
}
async function bookWithCoins(buyer: Member, listingId: string) {
  await db().transaction().execute((trx) => creditPurchase(trx, { userId: buyer.id, coins: 1000, reference: `test-credit:${randomUUID()}` }));
  const response = await buyer.api(`/api/listings/${listingId}/purchase`, { json: { units: 1, desiredStartTime: Date.now() + 86_400_000 }, headers: { "Idempotency-Key": randomUUID() } });
  expect(response.status).toBe(201);
}
const walletOf = async (userId: string) => {
  const row = await db().selectFrom("coin_wallets").select(["purchased", "earned"]).where("user_id", "=", userId).executeTakeFirst();
  return (row?.purchased ?? 0) + (row?.earned ?? 0);
};

describe(`the desk's decisions (${testEngine})`, () => {
  it("groups a picture's reports in the queue, shows the picture to the report roles only, hides it like the command line and writes one audit row", async () => {
    const [sender, bob, carol] = await Promise.all(["送り主", "ボブ", "キャロル"].map((name) => createMember(app(), name)));
    const { messageId, uploadId } = await pictureMessage(sender, [bob, carol]);
    await fileReport(bob, "chat_message", messageId, "off_platform_payment", "外部での支払いに誘われました");
    await fileReport(carol, "chat_message", messageId, "spam", "同じ画像が何度も");

    const queue = await (await moderator.page("/admin/reports?type=chat_message")).text();
    expect(queue).toContain("外部での支払いに誘われました");
    expect(queue).toContain("同じ画像が何度も");
    expect(queue).toContain(`href="/admin/reports/chat_message/${messageId}"`);
    expect(queue.split(`href="/admin/reports/chat_message/${messageId}"`)).toHaveLength(2);
    const byReason = await (await moderator.page("/admin/reports?reason=impersonation&type=")).text();
    expect(byReason).not.toContain(`/admin/reports/chat_message/${messageId}`);
    expect((await moderator.page("/admin/reports?reason=nonsense")).status).toBe(400);

    const path = `/admin/reports/chat_message/${messageId}`;
    const page = await (await moderator.page(path)).text();
    expect(page).toContain(`src="/admin/media/${uploadId}"`);
    expect(page).toContain("外で払って");
    const picture = await moderator.page(`/admin/media/${uploadId}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/jpeg");
    // Finance does not decide reports; a room member who is no operator does not get the desk's copy either.
    expect((await finance.page(`/admin/media/${uploadId}`)).status).toBe(404);
    expect((await finance.page(path)).status).toBe(404);
    expect((await app().request(`/admin/media/${uploadId}`, { headers: { Authorization: `Bearer ${bob.token}` } })).status).toBe(404);

    const noReason = await decide(moderator, path, { intent: "hide", reason: "  " });
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("理由を入力してください");
    const crossSite = await moderator.page(path, { method: "POST", headers: { ...sameOrigin(app()), "Sec-Fetch-Site": "cross-site" }, body: new URLSearchParams({ intent: "hide", reason: "x" }) });
    expect(crossSite.status).toBe(403);
    expect(await auditOf(messageId)).toEqual([]);

    const hidden = await decide(moderator, path, { intent: "hide", reason: "外部取引への誘導" });
    expect(hidden.status).toBe(302);
    expect(hidden.headers.get("location")).toBe(path);
    expect(hidden.headers.get("set-cookie")).toContain("gm_toast=");
    const message = await db().selectFrom("chat_messages").select("hidden_at").where("id", "=", Number(messageId)).executeTakeFirstOrThrow();
    expect(message.hidden_at).not.toBeNull();
    const reports = await db().selectFrom("reports").select("status").where("target_id", "=", messageId).execute();
    expect(reports.map((row) => row.status)).toEqual(["actioned", "actioned"]);
    for (const reporter of [bob, carol]) expect(await notificationsOf(reporter.id)).toHaveLength(1);
    const [audit] = await auditOf(messageId);
    expect(audit).toMatchObject({ operator_id: moderator.id, operator_label: `desk:${moderator.email}`, kind: "report_decided", target_type: "chat_message", reason: "外部取引への誘導" });
    expect(await db().selectFrom("moderation_actions").select(["action", "reason"]).where("target_id", "=", messageId).execute()).toEqual([{ action: "hide", reason: "外部取引への誘導" }]);
    // The toast on the page the redirect leads to, and the item no longer offered for hiding.
    const after = await (await moderator.page(path)).text();
    expect(after).toContain("非表示にしました");
    expect(after).not.toContain('value="hide"');

    // The same decision from the command line on a second picture leaves the same rows but the operator's.
    const second = await pictureMessage(sender, [bob]);
    await fileReport(bob, "chat_message", second.messageId, "spam");
    const [{ id: reportId }] = await db().selectFrom("reports").select("id").where("target_id", "=", second.messageId).execute();
    expect(await runModerationCommand(["hide", String(reportId), "--reason", "外部取引への誘導"], { db: db(), operator: TEST_OPERATOR, out: () => {}, err: () => {} })).toBe(0);
    const [cli] = await auditOf(second.messageId);
    expect({ ...cli, id: 0, at: 0, operator_id: 0, operator_label: 0, target_id: 0, details: 0 }).toEqual({ ...audit, id: 0, at: 0, operator_id: 0, operator_label: 0, target_id: 0, details: 0 });
  });

  it("dismiss closes the target's reports with no effect and tells the reporter; a second dismiss is refused with 409", async () => {
    const [author, reporter] = await Promise.all([createMember(app(), "投稿者"), createMember(app(), "通報者")]);
    const posted = await author.api("/api/posts/create", { json: { content: "ふつうの投稿", imageUrl: null, isPublic: true } });
    const postId = ((await posted.json()) as { post: { id: string } }).post.id;
    await fileReport(reporter, "post", postId, "inappropriate", "気になりました");
    const path = `/admin/reports/post/${postId}`;
    expect((await decide(moderator, path, { intent: "dismiss", reason: "問題なし" })).status).toBe(302);
    expect(await db().selectFrom("reports").select("status").where("target_id", "=", postId).execute()).toEqual([{ status: "dismissed" }]);
    expect(await db().selectFrom("posts").select("hidden_at").where("id", "=", postId).executeTakeFirstOrThrow()).toEqual({ hidden_at: null });
    expect(await notificationsOf(reporter.id)).toHaveLength(1);
    const again = await decide(moderator, path, { intent: "dismiss", reason: "もう一度" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("この通報はすでに判断済みです");
    expect((await auditOf(postId)).map((row) => row.kind)).toEqual(["report_decided"]);
  });

  it("a suspension from a report settles money like the command line: the booking cancelled with the escrow back, sessions ended; lifting it from the person's page", async () => {
    const [seller, buyer, reporter] = await Promise.all([createMember(app(), "売り手"), createMember(app(), "買い手"), createMember(app(), "通報者")]);
    const listingId = await listingOf(seller);
    await bookWithCoins(buyer, listingId);
    expect(await walletOf(buyer.id)).toBe(700);
    await fileReport(reporter, "listing", listingId, "off_platform_payment", "LINEで払えと");
    const badDays = await decide(moderator, `/admin/reports/listing/${listingId}`, { intent: "suspend", reason: "外部取引", days: "0" });
    expect(badDays.status).toBe(400);
    expect(await badDays.text()).toContain("停止する日数を1〜3650の整数で入力してください");

    const suspended = await decide(moderator, `/admin/reports/listing/${listingId}`, { intent: "suspend", reason: "外部取引", days: "3" });
    expect(suspended.status).toBe(302);
    const user = await db().selectFrom("users").select(["suspended_until"]).where("id", "=", seller.id).executeTakeFirstOrThrow();
    expect(user.suspended_until!.getTime()).toBeGreaterThan(Date.now() + 2.9 * 86_400_000);
    expect(await walletOf(buyer.id)).toBe(1000);
    expect(await db().selectFrom("bookings").select("status").where("listing_id", "=", listingId).execute()).toEqual([{ status: "cancelled" }]);
    expect(await db().selectFrom("listings").select("status").where("id", "=", listingId).executeTakeFirstOrThrow()).toEqual({ status: "paused" });
    expect(await db().selectFrom("auth_sessions").select("id").where("user_id", "=", seller.id).where("revoked_at", "is", null).execute()).toEqual([]);
    expect(await notificationsOf(reporter.id)).toHaveLength(1);
    expect(await ledgerProblems(db())).toEqual([]);
    const [sanction] = await auditOf(seller.id);
    expect(sanction).toMatchObject({ kind: "sanction", operator_id: moderator.id, target_type: "user", reason: "外部取引" });

    // Finance reads the person's record but cannot act on it.
    const record = await finance.page(`/admin/users/${seller.id}`);
    expect(record.status).toBe(200);
    const recordHtml = await record.text();
    expect(recordHtml).toContain("利用停止中");
    expect(recordHtml).not.toContain('value="lift"');
    expect((await finance.post(`/admin/users/${seller.id}`, { intent: "lift", reason: "間違い" })).status).toBe(404);

    const lifted = await decide(moderator, `/admin/users/${seller.id}`, { intent: "lift", reason: "異議を認めた" });
    expect(lifted.status).toBe(302);
    expect(await db().selectFrom("users").select(["suspended_until", "banned_at"]).where("id", "=", seller.id).executeTakeFirstOrThrow()).toEqual({ suspended_until: null, banned_at: null });
    expect(await db().selectFrom("listings").select("status").where("id", "=", listingId).executeTakeFirstOrThrow()).toEqual({ status: "active" });
    expect((await auditOf(seller.id)).map((row) => row.kind)).toEqual(["sanction", "sanction"]);
    expect((await decide(moderator, `/admin/users/${seller.id}`, { intent: "lift", reason: "もう一度" })).status).toBe(409);
  });

  it("people search by address, name and id; the audit trail lists the desk's rows newest first, filtered and paged, for admins only", async () => {
    const member = await createMember(app(), "検索_さん%");
    const { email } = await db().selectFrom("users").select("email").where("id", "=", member.id).executeTakeFirstOrThrow();
    for (const q of [email!, "検索_さん%", member.id]) {
      const html = await (await finance.page(`/admin/users?${new URLSearchParams({ q })}`)).text();
      expect(html, q).toContain(`href="/admin/users/${member.id}"`);
    }
    expect(await (await finance.page(`/admin/users?q=${encodeURIComponent("検索%さん")}`)).text()).not.toContain(`/admin/users/${member.id}`);
    expect((await finance.page(`/admin/users/${randomUUID()}`)).status).toBe(404);
    expect((await finance.page("/admin/users/not-an-id")).status).toBe(404);

    expect((await moderator.page("/admin/audit")).status).toBe(404);
    const admin = await createOperator(app(), ["admin"], { displayName: "管理者さん" });
    await decide(admin, `/admin/users/${member.id}`, { intent: "ban", reason: "テストのban" });
    const trail = await (await admin.page(`/admin/audit?kind=sanction&operator=${admin.id}`)).text();
    expect(trail).toContain("テストのban");
    expect(trail).toContain(`desk:${admin.email}`);
    const onePage = await admin.page(`/admin/audit?type=user&target=${member.id}`);
    expect(onePage.status).toBe(200);
    expect((await admin.page("/admin/audit?target=x")).status).toBe(400);
    expect((await admin.page("/admin/audit?before=abc")).status).toBe(400);
    expect((await admin.post("/admin/audit", { reason: "消したい" })).status).toBe(404);
    const older = await (await admin.page("/admin/audit?before=1")).text();
    expect(older).toContain("記録はありません");
  });

  it("an operator's 61st decision in 10 minutes is a 429 that decides nothing; another operator is not held back", async () => {
    const busy = await createOperator(app(), ["moderator"], { displayName: "忙しいさん" });
    const [author, reporter] = await Promise.all(["書く人", "通報者"].map((name) => createMember(app(), name)));
    const postOf = async (content: string) => {
      const posted = await author.api("/api/posts/create", { json: { content, imageUrl: null, isPublic: true } });
      return ((await posted.json()) as { post: { id: string } }).post.id;
    };
    const [first, last] = [await postOf("一件目の投稿"), await postOf("六十一件目の投稿")];
    await fileReport(reporter, "post", first, "spam");
    await fileReport(reporter, "post", last, "spam");
    // Every well-formed decision counts, taken or refused: one dismissal, then 59 that find it decided already.
    expect((await decide(busy, `/admin/reports/post/${first}`, { intent: "dismiss", reason: "問題なし" })).status).toBe(302);
    for (let n = 1; n < 60; n++) expect((await decide(busy, `/admin/reports/post/${first}`, { intent: "dismiss", reason: "問題なし" })).status).toBe(409);
    const refused = await decide(busy, `/admin/reports/post/${last}`, { intent: "dismiss", reason: "問題なし" });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("操作が多すぎます");
    expect(await db().selectFrom("reports").select("status").where("target_id", "=", last).execute()).toEqual([{ status: "open" }]);
    expect(await auditOf(last)).toEqual([]);
    expect((await decide(moderator, `/admin/reports/post/${last}`, { intent: "dismiss", reason: "問題なし" })).status).toBe(302);
    expect((await auditOf(last)).map((row) => row.operator_id)).toEqual([moderator.id]);
  }, 120_000);

  it("sends the open reports' count live to the operators who decide reports, at aal2, and to no one else", async () => {
    const tokenOf = async (operator: DeskOperatorMember) => ((await (await operator.page("/api/auth/token")).json()) as { accessToken: string }).accessToken;
    const [author, reporter, gamer] = await Promise.all(["書いた人", "通報する人", "ふつうの人"].map((name) => createMember(app(), name)));
    const noApp = await createOperator(app(), ["moderator"], { twoStep: false, displayName: "未設定さん" });
    const [toModerator, toFinance, toGamer, toAal1] = await Promise.all([
      server.socketOf({ token: await tokenOf(moderator) }).then((socket) => collect<{ openReports: number }>(socket, "desk:reports")),
      server.socketOf({ token: await tokenOf(finance) }).then((socket) => collect(socket, "desk:reports")),
      server.socketOf(gamer).then((socket) => collect(socket, "desk:reports")),
      server.socketOf(noApp).then((socket) => collect(socket, "desk:reports")),
    ]);
    const posted = await author.api("/api/posts/create", { json: { content: "ライブの投稿", imageUrl: null, isPublic: true } });
    const postId = ((await posted.json()) as { post: { id: string } }).post.id;
    await fileReport(reporter, "post", postId, "spam");
    await settle(300);
    const open = await (await moderator.page("/admin")).text();
    const count = Number(/data-testid="desk-open-reports"[^>]*>(\d+)</.exec(open)?.[1]);
    expect(toModerator.at(-1)).toEqual({ openReports: count });
    await decide(moderator, `/admin/reports/post/${postId}`, { intent: "dismiss", reason: "問題なし" });
    await settle(300);
    expect(toModerator.at(-1)).toEqual({ openReports: count - 1 });
    // A decision from the shell, which has no sockets, reaches the desk too: through the database's notice.
    const other = await author.api("/api/posts/create", { json: { content: "コマンドで判断される投稿", imageUrl: null, isPublic: true } });
    const otherId = ((await other.json()) as { post: { id: string } }).post.id;
    await fileReport(reporter, "post", otherId, "spam");
    await expect.poll(() => toModerator.at(-1), { timeout: 10_000 }).toEqual({ openReports: count });
    const { id: reportId } = await db().selectFrom("reports").select("id").where("target_id", "=", otherId).executeTakeFirstOrThrow();
    const heard = toModerator.length;
    expect(await runModerationCommand(["dismiss", String(reportId), "--reason", "問題なし"], { db: db(), operator: TEST_OPERATOR, out: () => {}, err: () => {} })).toBe(0);
    await expect.poll(() => toModerator.slice(heard), { timeout: 10_000 }).toEqual([{ openReports: count - 1 }]);
    expect(toFinance).toEqual([]);
    expect(toGamer).toEqual([]);
    expect(toAal1).toEqual([]);
  });
});
