import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Socket } from "socket.io-client";
import { beforeAll, describe, expect, it } from "vitest";
import { purchaseListing } from "~/models/bookings/purchase.server";
import { creditPurchase, ledgerProblems, transfer } from "~/models/coins.server";
import { createListing } from "~/models/listings.server";
import { restore, stopUser } from "~/models/moderation-sanctions.server";
import { dismissReport, hideReported } from "~/models/moderation.server";
import { decidePayout } from "~/models/payouts.server";
import { createBrowserMember, createMember, PASSWORD, supabaseFor, type Member } from "../support/auth";
import { testEngine } from "../support/database";
import { serverWithSockets } from "../support/sockets";
import type { ReportReason, ReportTargetType } from "../../app/infra/db/tables";
import type { Realtime } from "../../app/infra/realtime";
import { parseModerationArgs, runModerationCommand } from "../../server/moderation-command";
import { TEST_OPERATOR } from "../support/operators";

/**
 * The operators' decisions (docs/product.md#trust-and-safety, ADR 030) through the real server, on whichever engine the run
 * uses: hide and dismiss settle every open report of the target and tell each reporter; a suspension or ban revokes
 * the sessions and closes the sockets (through NOTIFY, as the command line in another process does), refuses sign-in
 * with the date, pauses listings, cancels open bookings with exactly the escrow back to the buyer, holds payouts;
 * restore undoes a hide or lifts a suspension; the log is append-only; a purchase racing a suspension is refused or
 * refunded. On PostgreSQL the command runs as its own process.
 */

const GAME = "moderation-test-game";
const server = serverWithSockets({ seed: false });
const db = () => server.app.database.db;
const noRealtime: Realtime = { toUsers: () => {}, joinRoom: () => {}, disconnectUser: async () => {} };
let tipper: Member;

beforeAll(async () => {
  await db().insertInto("games").values({ slug: GAME, name: "処分テストゲーム", name_kana: "しょぶんてすとげーむ" }).execute();
  tipper = await createMember(server.app, "チップを送る人");
});

const buy = (userId: string, coins: number) => db().transaction().execute((trx) => creditPurchase(trx, { userId, coins, reference: `test-credit:${randomUUID()}` }));
/** Earned coins, as a tip with no fee. */
async function earn(userId: string, coins: number) {
  await db().transaction().execute(async (trx) => {
    await creditPurchase(trx, { userId: tipper.id, coins, reference: `test-credit:${randomUUID()}` });
    await transfer(trx, { fromId: tipper.id, toId: userId, amount: coins, purpose: "tip", reference: `test-tip:${randomUUID()}`, feePercent: 0 });
  });
}
async function wallet(userId: string) {
  const row = await db().selectFrom("coin_wallets").select(["purchased", "earned"]).where("user_id", "=", userId).executeTakeFirst();
  return (row?.purchased ?? 0) + (row?.earned ?? 0);
}
async function listingOf(member: Member, title = "処分テストのチケット") {
  const response = await member.api("/api/listings", { json: { title, gameSlug: GAME, description: "", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 3 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { listing: { id: string } } }).data.listing.id;
}
async function book(buyer: Member, listingId: string, { units = 1, startInMs = 86_400_000 } = {}) {
  const response = await buyer.api(`/api/listings/${listingId}/purchase`, {
    json: { units, desiredStartTime: Date.now() + startInMs },
    headers: { "Idempotency-Key": randomUUID() },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
}
async function act(member: Member, bookingId: string, action: string) {
  const response = await member.api(`/api/tickets/${bookingId}/${action}`, { json: {} });
  expect(response.status, action).toBe(200);
}
async function report(reporter: { id: string }, targetType: ReportTargetType, targetId: string, targetUserId: string, reason: ReportReason = "spam") {
  const row = await db()
    .insertInto("reports")
    .values({ reporter_id: reporter.id, target_type: targetType, target_id: targetId, target_user_id: targetUserId, reason })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
async function postOf(author: { id: string }, content = "通報される投稿") {
  return (await db().insertInto("posts").values({ author_id: author.id, content, upload_id: null }).returning("id").executeTakeFirstOrThrow()).id;
}
const notificationsOf = (userId: string) => db().selectFrom("notifications").select(["type", "title", "body"]).where("user_id", "=", userId).where("type", "=", "report").execute();
const reportStatus = async (id: number) => (await db().selectFrom("reports").select(["status", "decided_at"]).where("id", "=", id).executeTakeFirstOrThrow());
const noLedgerProblems = async () => expect(await ledgerProblems(db())).toEqual([]);
const textOf = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "");
/**
 * How soon a sanction closes the user's sockets, through PostgreSQL's NOTIFY (or the app's own emitter). A second was
 * the bound, little room on a CI runner at load 8 and more; without the notification the sockets would stay for their
 * whole session, so 5 s still tells the two apart.
 */
const DISCONNECT_BOUND_MS = 5_000;
/** Resolves with the time it took the socket to be disconnected by the server, or rejects after `ms`. */
const disconnected = (socket: Socket, ms = DISCONNECT_BOUND_MS) =>
  new Promise<number>((resolve, reject) => {
    const started = Date.now();
    if (!socket.connected) return resolve(0);
    const timer = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
    socket.once("disconnect", () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
const ACTIONED = "ご報告いただいた内容を確認し、対応しました";
const DISMISSED = "対応は行いませんでした";

describe(`hide, dismiss and restore of a report (${testEngine})`, () => {
  it("hide sets hidden_at, writes the action, actions every open report of the item and tells each reporter once; restore un-hides", async () => {
    const [author, first, second] = await Promise.all([createMember(server.app, "投稿者"), createMember(server.app, "通報者1"), createMember(server.app, "通報者2")]);
    const postId = await postOf(author);
    const reportId = await report(first, "post", postId, author.id, "spam");
    const otherId = await report(second, "post", postId, author.id, "harassment");
    const outcome = await hideReported({ db: db(), operator: TEST_OPERATOR, reportId, reason: "  宣伝の投稿  " });
    expect(outcome).toMatchObject({ changed: true, reportsDecided: 2, action: { action: "hide", report_id: reportId, target_type: "post", target_id: postId, user_id: author.id, reason: "宣伝の投稿" } });
    const post = await db().selectFrom("posts").select("hidden_at").where("id", "=", postId).executeTakeFirstOrThrow();
    expect(post.hidden_at).toBeInstanceOf(Date);
    expect(await reportStatus(reportId)).toMatchObject({ status: "actioned" });
    expect(await reportStatus(otherId)).toMatchObject({ status: "actioned" });
    for (const reporter of [first, second]) {
      const notes = await notificationsOf(reporter.id);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.body).toContain(ACTIONED);
      expect(notes[0]!.body).not.toContain("宣伝の投稿");
    }
    // The author is not told anything by the reporters' notifications.
    expect(await notificationsOf(author.id)).toEqual([]);

    const back = await restore({ db: db(), operator: TEST_OPERATOR, reportId, reason: "誤りでした" });
    expect(back.action).toMatchObject({ action: "restore", report_id: reportId, target_id: postId });
    expect((await db().selectFrom("posts").select("hidden_at").where("id", "=", postId).executeTakeFirstOrThrow()).hidden_at).toBeNull();
    // The reports stay decided.
    expect(await reportStatus(reportId)).toMatchObject({ status: "actioned" });
    const actions = await db().selectFrom("moderation_actions").select(["action"]).where("target_id", "=", postId).orderBy("id").execute();
    expect(actions.map((row) => row.action)).toEqual(["hide", "restore"]);
  });

  it("each hideable target type; a user's report cannot be hidden; an unknown report is not found", async () => {
    const [owner, reporter] = await Promise.all([createMember(server.app, "持ち主"), createMember(server.app, "見た人")]);
    const listingId = await listingOf(owner, "隠されるチケット");
    const reportId = await report(reporter, "listing", listingId, owner.id, "inappropriate");
    await hideReported({ db: db(), operator: TEST_OPERATOR, reportId, reason: "不適切" });
    expect((await db().selectFrom("listings").select("hidden_at").where("id", "=", listingId).executeTakeFirstOrThrow()).hidden_at).not.toBeNull();
    // Hidden already: logged again, nothing else changes.
    expect(await hideReported({ db: db(), operator: TEST_OPERATOR, reportId, reason: "再確認" })).toMatchObject({ changed: false, reportsDecided: 0 });

    const userReport = await report(reporter, "user", owner.id, owner.id, "impersonation");
    await expect(hideReported({ db: db(), operator: TEST_OPERATOR, reportId: userReport, reason: "なりすまし" })).rejects.toMatchObject({ code: "user_not_hideable" });
    expect(await reportStatus(userReport)).toMatchObject({ status: "open" });
    await expect(hideReported({ db: db(), operator: TEST_OPERATOR, reportId: 999_999_999, reason: "x" })).rejects.toMatchObject({ code: "report_not_found" });
    const gone = await report(reporter, "post", randomUUID(), owner.id);
    await expect(hideReported({ db: db(), operator: TEST_OPERATOR, reportId: gone, reason: "x" })).rejects.toMatchObject({ code: "target_not_found" });
  });

  it("dismiss closes the open reports of the target with no effect and tells the reporters; a second dismiss is refused", async () => {
    const [author, first, second] = await Promise.all([createMember(server.app, "問題ない人"), createMember(server.app, "気にした人1"), createMember(server.app, "気にした人2")]);
    const postId = await postOf(author, "普通の投稿");
    const reportId = await report(first, "post", postId, author.id, "other");
    const otherId = await report(second, "post", postId, author.id, "spam");
    const outcome = await dismissReport({ db: db(), operator: TEST_OPERATOR, reportId, reason: "問題なし" });
    expect(outcome).toMatchObject({ reportsDecided: 2, action: { action: "dismiss", report_id: reportId } });
    expect((await db().selectFrom("posts").select("hidden_at").where("id", "=", postId).executeTakeFirstOrThrow()).hidden_at).toBeNull();
    expect(await reportStatus(otherId)).toMatchObject({ status: "dismissed" });
    expect((await notificationsOf(second.id))[0]!.body).toContain(DISMISSED);
    await expect(dismissReport({ db: db(), operator: TEST_OPERATOR, reportId, reason: "もう一度" })).rejects.toMatchObject({ code: "already_decided" });
  });
});

describe(`the log and the reason (${testEngine})`, () => {
  it("moderation_actions is append-only: update and delete are refused", async () => {
    const [author, reporter] = await Promise.all([createMember(server.app, "記録される人"), createMember(server.app, "記録の通報者")]);
    const reportId = await report(reporter, "post", await postOf(author), author.id);
    const { action } = await dismissReport({ db: db(), operator: TEST_OPERATOR, reportId, reason: "記録" });
    await expect(db().updateTable("moderation_actions").set({ reason: "書き換え" }).where("id", "=", action.id).execute()).rejects.toThrow(/append-only/);
    await expect(db().deleteFrom("moderation_actions").where("id", "=", action.id).execute()).rejects.toThrow(/append-only/);
    expect((await db().selectFrom("moderation_actions").select("reason").where("id", "=", action.id).executeTakeFirstOrThrow()).reason).toBe("記録");
  });

  it("every decision needs --reason: the command refuses without one (exit 1, nothing written), the model refuses a blank one", async () => {
    const [author, reporter] = await Promise.all([createMember(server.app, "理由のない処分"), createMember(server.app, "理由の通報者")]);
    const reportId = await report(reporter, "post", await postOf(author), author.id);
    for (const args of [["hide", String(reportId)], ["dismiss", String(reportId), "--reason", "   "], ["suspend", author.id, "--days", "3"], ["ban", author.id], ["restore", String(reportId)]]) {
      expect(parseModerationArgs(args), args.join(" ")).toMatchObject({ error: expect.stringContaining("--reason") });
      const err: string[] = [];
      expect(await runModerationCommand(args, { db: db(), out: () => {}, err: (line) => err.push(line) })).toBe(1);
      expect(err.join("\n")).toContain("使い方");
    }
    for (const args of [["suspend", author.id, "--reason", "x"], ["suspend", author.id, "--days", "0", "--reason", "x"], ["suspend", "nope", "--days", "1", "--reason", "x"], ["hide", "abc", "--reason", "x"], ["list", "1"], ["nonsense"], ["hide", "1", "--reason", "x", "--force"]]) {
      expect(parseModerationArgs(args), args.join(" ")).toHaveProperty("error");
    }
    await expect(stopUser({ db: db(), operator: TEST_OPERATOR, userId: author.id, days: 1, reason: " " })).rejects.toMatchObject({ code: "reason_required" });
    expect(await reportStatus(reportId)).toMatchObject({ status: "open" });
    expect(await db().selectFrom("moderation_actions").select("id").where("user_id", "=", author.id).execute()).toEqual([]);
  });

  it("list groups open reports by target, most reported first, with the reasons' counts and the off-platform flags; show tells the rest", async () => {
    const [author, a, b, c] = await Promise.all([createMember(server.app, "よく通報される人"), createMember(server.app, "通報A"), createMember(server.app, "通報B"), createMember(server.app, "通報C")]);
    const many = await postOf(author, "外部で払ってください");
    const few = await postOf(author, "もう一つ");
    await report(a, "post", few, author.id, "spam");
    const first = await report(a, "post", many, author.id, "off_platform_payment");
    await report(b, "post", many, author.id, "off_platform_payment");
    await report(c, "post", many, author.id, "harassment");
    await db().insertInto("off_platform_flags").values([{ user_id: author.id, target_type: "post", target_id: many }, { user_id: author.id, target_type: "chat_message", target_id: "1" }]).execute();
    const out: string[] = [];
    expect(await runModerationCommand(["list"], { db: db(), out: (line) => out.push(line), err: () => {} })).toBe(0);
    const text = out.join("\n");
    const manyAt = text.indexOf(`投稿 ${many}`);
    const fewAt = text.indexOf(`投稿 ${few}`);
    expect(manyAt).toBeGreaterThanOrEqual(0);
    expect(fewAt).toBeGreaterThan(manyAt);
    expect(text).toContain("外部での支払い・直接取引の誘い 2、嫌がらせ・誹謗中傷 1");
    expect(text).toContain("外部取引の警告: 2回");

    const shown: string[] = [];
    expect(await runModerationCommand(["show", String(first)], { db: db(), out: (line) => shown.push(line), err: () => {} })).toBe(0);
    const detail = shown.join("\n");
    expect(detail).toContain("外部で払ってください");
    expect(detail).toContain(`よく通報される人 (${author.id})`);
    expect(detail).toContain("同じ対象へのほかの通報: 2件");
    expect(detail).toContain("持ち主の処分履歴: 0件");
    const err: string[] = [];
    expect(await runModerationCommand(["show", "999999999"], { db: db(), out: () => {}, err: (line) => err.push(line) })).toBe(1);
    expect(err.join("")).toContain("通報が見つかりません");
  });
});

const account = { bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary", accountNumber: "1234567", accountHolder: "ゲーマー タロウ" };

describe(`a suspension (${testEngine})`, () => {
  it("cancels the open bookings in each state with exactly the escrow back to the buyer, pauses listings, holds payouts, ends sessions and sockets, refuses sign-in with the date; restore lifts it", async () => {
    const seller = await createBrowserMember(server.app, "止められる売り手");
    const [buyerA, buyerB, buyerC, otherSeller, reporter] = await Promise.all([
      createMember(server.app, "買い手A"),
      createMember(server.app, "買い手B"),
      createMember(server.app, "買い手C"),
      createMember(server.app, "別の売り手"),
      createMember(server.app, "売り手を通報した人"),
    ]);
    await Promise.all([buy(buyerA.id, 5_000), buy(buyerB.id, 5_000), buy(buyerC.id, 5_000), buy(seller.id, 2_000)]);
    const listingId = await listingOf(seller);
    const pausedByHand = await listingOf(seller, "自分で止めたチケット");
    expect((await seller.api(`/api/listings/${pausedByHand}`, { method: "PATCH", json: { status: "paused" } })).status).toBeLessThan(300);
    const pending = await book(buyerA, listingId, { units: 2 });
    const accepted = await book(buyerB, listingId);
    await act(seller, accepted, "accept");
    const inProgress = await book(buyerC, listingId, { startInMs: 120_000 });
    await act(seller, inProgress, "accept");
    await act(seller, inProgress, "start");
    // An extension adds to the escrow; it is refunded too.
    const extended = await buyerC.api(`/api/tickets/${inProgress}/extend`, { json: { units: 1 }, headers: { "Idempotency-Key": randomUUID() } });
    expect(extended.status).toBe(200);
    // The suspended user as a buyer of someone else.
    const asBuyer = await book(seller, await listingOf(otherSeller, "別の人のチケット"));
    await earn(seller.id, 3_000);
    const payout = await seller.api("/api/payouts", { json: { ...account, coins: 1_000 }, headers: { "Idempotency-Key": randomUUID() } });
    expect(payout.status).toBe(201);
    const payoutId = (await payout.json()).data.payout.id as string;
    const userReport = await report(reporter, "user", seller.id, seller.id, "harassment");
    await noLedgerProblems();
    const before = { a: await wallet(buyerA.id), b: await wallet(buyerB.id), c: await wallet(buyerC.id), seller: await wallet(seller.id) };
    const escrows = await db().selectFrom("coin_escrows").select(["reference", "purchased", "earned"]).where("status", "=", "held").where((eb) => eb.or([eb("payer_id", "=", seller.id), eb("payee_id", "=", seller.id)])).execute();
    const held = new Map(escrows.map((row) => [row.reference, row.purchased + row.earned]));
    expect(held.get(`booking:${pending}`)).toBe(600);
    expect(held.get(`booking:${inProgress}`)).toBe(600);

    const socket = await server.socketOf(seller);
    const now = new Date();
    // No realtime passed: the sockets close only through NOTIFY, as when the command line runs in its own process.
    const outcome = await stopUser({ db: db(), operator: TEST_OPERATOR, userId: seller.id, days: 7, reason: "予約を放置した", now });
    const tookMs = await disconnected(socket);
    expect(tookMs).toBeLessThan(DISCONNECT_BOUND_MS);
    expect(outcome).toMatchObject({ action: { action: "suspend", user_id: seller.id }, listingsPaused: 1, payoutsHeld: 1, reportsDecided: 1 });
    expect(outcome.sessionsRevoked).toBeGreaterThanOrEqual(2);
    expect(outcome.bookingsCancelled.map((row) => row.id).sort()).toEqual([pending, accepted, inProgress, asBuyer].sort());

    // Exactly the escrow back to each buyer; the booking rows say why.
    expect(await wallet(buyerA.id)).toBe(before.a + 600);
    expect(await wallet(buyerB.id)).toBe(before.b + 300);
    expect(await wallet(buyerC.id)).toBe(before.c + 600);
    expect(await wallet(seller.id)).toBe(before.seller + 300);
    const rows = await db().selectFrom("bookings").select(["id", "status", "cancel_reason", "cancelled_by"]).where("id", "in", [pending, accepted, inProgress, asBuyer]).execute();
    for (const row of rows) expect(row).toMatchObject({ status: "cancelled", cancel_reason: "moderation", cancelled_by: "auto" });
    expect(await db().selectFrom("coin_escrows").select("status").where("reference", "in", [...held.keys()]).execute()).toEqual(expect.arrayContaining([{ status: "refunded" }]));
    expect((await db().selectFrom("coin_escrows").select("status").where("reference", "in", [...held.keys()]).where("status", "=", "held").execute()).length).toBe(0);
    await noLedgerProblems();
    // The other parties are told.
    const told = await db().selectFrom("notifications").select("user_id").where("type", "=", "booking").where("title", "like", "%キャンセル%").where("user_id", "in", [buyerA.id, buyerB.id, buyerC.id, otherSeller.id]).execute();
    expect(new Set(told.map((row) => row.user_id))).toEqual(new Set([buyerA.id, buyerB.id, buyerC.id, otherSeller.id]));
    expect((await notificationsOf(reporter.id))[0]!.body).toContain(ACTIONED);
    expect(await reportStatus(userReport)).toMatchObject({ status: "actioned" });

    // Listings: the active one paused and marked; the one paused by hand untouched.
    const listings = await db().selectFrom("listings").select(["id", "status", "moderation_paused_at"]).where("seller_id", "=", seller.id).execute();
    expect(listings.find((row) => row.id === listingId)).toMatchObject({ status: "paused", moderation_paused_at: expect.any(Date) });
    expect(listings.find((row) => row.id === pausedByHand)).toMatchObject({ status: "paused", moderation_paused_at: null });
    // The payout is held, and `npm run payouts -- pay` refuses it.
    expect((await db().selectFrom("payout_requests").select("status").where("id", "=", payoutId).executeTakeFirstOrThrow()).status).toBe("held");
    await expect(decidePayout({ db: db(), operator: TEST_OPERATOR, payoutId, decision: "paid" })).rejects.toMatchObject({ code: "payout_held" });

    // Sessions: the access token, the refresh token and the cookie session all fail; sign-in is refused with the date.
    expect((await seller.api("/api/auth/me")).status).toBe(401);
    const supabase = await supabaseFor(server.app);
    const refreshed = await supabase.auth.refreshSession({ refresh_token: seller.refreshToken });
    expect(refreshed.error).not.toBeNull();
    const signIn = await supabase.auth.signInWithPassword({ email: seller.email, password: PASSWORD });
    expect(signIn.error).toMatchObject({ status: 400, code: "user_banned" });
    const until = new Intl.DateTimeFormat("sv-SE", { timeZone: "Asia/Tokyo", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" })
      .format(new Date(now.getTime() + 7 * 86_400_000))
      .replace(/-/g, "/");
    expect(signIn.error!.message).toBe(`このアカウントは${until}まで利用停止中です。お問い合わせは /inquiry から`);
    const loginPage = await server.app.request("/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: seller.email, password: PASSWORD }),
    });
    expect(loginPage.status).toBe(400);
    const loginHtml = await textOf(loginPage);
    expect(loginHtml).toContain(`${until}まで利用停止中です`);
    expect(loginHtml).toMatch(/<a[^>]+href="\/inquiry"/);
    // A wrong password still says only that.
    expect((await supabase.auth.signInWithPassword({ email: seller.email, password: "wrong-password-1" })).error).toMatchObject({ code: "invalid_credentials" });

    // The profile is marked and offers no actions; nobody can book the listing (paused) or subscribe.
    const profile = await textOf(await buyerA.api(`/u/${seller.id}`, { headers: { Accept: "text/html" } }));
    expect(profile).toContain("利用停止中のユーザー");
    expect(profile).not.toContain("チャットする");

    // Restore by the user's id: listings back, payouts requested again, sign-in works; the refunds stay refunded.
    const lifted = await restore({ db: db(), operator: TEST_OPERATOR, userId: seller.id, reason: "異議を認めた" });
    expect(lifted).toMatchObject({ action: { action: "restore", user_id: seller.id }, listingsReactivated: 1, payoutsRequestedAgain: 1 });
    const after = await db().selectFrom("listings").select(["id", "status", "moderation_paused_at"]).where("seller_id", "=", seller.id).execute();
    expect(after.find((row) => row.id === listingId)).toMatchObject({ status: "active", moderation_paused_at: null });
    expect(after.find((row) => row.id === pausedByHand)).toMatchObject({ status: "paused" });
    expect((await db().selectFrom("payout_requests").select("status").where("id", "=", payoutId).executeTakeFirstOrThrow()).status).toBe("requested");
    expect((await db().selectFrom("bookings").select("status").where("id", "=", pending).executeTakeFirstOrThrow()).status).toBe("cancelled");
    expect(await wallet(buyerA.id)).toBe(before.a + 600);
    const again = await supabase.auth.signInWithPassword({ email: seller.email, password: PASSWORD });
    expect(again.error).toBeNull();
    await expect(restore({ db: db(), operator: TEST_OPERATOR, userId: seller.id, reason: "もう一度" })).rejects.toMatchObject({ code: "nothing_to_restore" });
    await noLedgerProblems();
  });

  it("a ban: banned_at, sign-in refused without a date, tokens refused; a suspension of a banned user is refused; restore lifts it", async () => {
    const member = await createMember(server.app, "追放される人");
    const socket = await server.socketOf(member);
    const outcome = await stopUser({ db: db(), operator: TEST_OPERATOR, userId: member.id, reason: "繰り返しの嫌がらせ" });
    expect(await disconnected(socket)).toBeLessThan(DISCONNECT_BOUND_MS);
    expect(outcome.action).toMatchObject({ action: "ban", until: null });
    expect((await db().selectFrom("users").select("banned_at").where("id", "=", member.id).executeTakeFirstOrThrow()).banned_at).toBeInstanceOf(Date);
    const revoked = await db().selectFrom("auth_sessions").select("revoked_reason").where("user_id", "=", member.id).execute();
    expect(revoked.map((row) => row.revoked_reason)).toEqual(revoked.map(() => "banned"));
    const supabase = await supabaseFor(server.app);
    const signIn = await supabase.auth.signInWithPassword({ email: member.email, password: PASSWORD });
    expect(signIn.error).toMatchObject({ code: "user_banned", message: "このアカウントは利用停止されています。お問い合わせは /inquiry から" });
    expect((await member.api("/api/auth/me")).status).toBe(401);
    await expect(stopUser({ db: db(), operator: TEST_OPERATOR, userId: member.id, days: 3, reason: "追加" })).rejects.toMatchObject({ code: "already_banned" });
    await expect(stopUser({ db: db(), operator: TEST_OPERATOR, userId: randomUUID(), days: 3, reason: "誰もいない" })).rejects.toMatchObject({ code: "user_not_found" });
    await restore({ db: db(), operator: TEST_OPERATOR, userId: member.id, reason: "解除" });
    expect((await supabase.auth.signInWithPassword({ email: member.email, password: PASSWORD })).error).toBeNull();
  });

  it("a purchase racing a suspension of its seller is either refused or refunded: never a booking in escrow with a stopped seller", async () => {
    const buyer = await createMember(server.app, "競う買い手");
    await buy(buyer.id, 100_000);
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const sellerId = randomUUID();
      await db().insertInto("users").values({ id: sellerId, display_name: `競う売り手${round}` }).execute();
      const listing = await createListing({ db: db(), sellerId, input: { title: "競争", gameSlug: GAME, description: "", pricePerUnit: 100, minutesPerUnit: 30, maxUnits: 1 } });
      const [booked, stopped] = await Promise.allSettled([
        purchaseListing({ db: db(), realtime: noRealtime, buyerId: buyer.id, listingId: listing.id, input: { units: 1, desiredStartTime: new Date(Date.now() + 86_400_000), note: "" }, idempotencyKey: randomUUID() }),
        new Promise((resolve) => setTimeout(resolve, round * 2)).then(() => stopUser({ db: db(), operator: TEST_OPERATOR, userId: sellerId, days: 1, reason: "競争" })),
      ]);
      expect(stopped.status).toBe("fulfilled");
      const bookings = await db().selectFrom("bookings").select(["id", "status", "cancel_reason"]).where("seller_id", "=", sellerId).execute();
      const heldEscrows = await db().selectFrom("coin_escrows").select("reference").where("payee_id", "=", sellerId).where("status", "=", "held").execute();
      expect(heldEscrows).toEqual([]);
      if (booked.status === "fulfilled") {
        expect(bookings).toEqual([{ id: booked.value.booking.id, status: "cancelled", cancel_reason: "moderation" }]);
        outcomes.add("refunded");
      } else {
        expect(booked.reason).toMatchObject({ status: expect.any(Number) });
        expect([404, 409]).toContain(booked.reason.status);
        expect(bookings).toEqual([]);
        outcomes.add("refused");
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
    await noLedgerProblems();
  });
});

describe("the command as its own process", () => {
  it.skipIf(testEngine !== "postgres")("npm run moderation lists, shows, hides and suspends on the configured PostgreSQL database; the server closes the suspended user's socket within a second", { timeout: 120_000 }, async () => {
    const [author, reporter] = await Promise.all([createMember(server.app, "別プロセスで止められる人"), createMember(server.app, "別プロセスの通報者")]);
    const postId = await postOf(author, "別プロセスで隠される投稿");
    const reportId = await report(reporter, "post", postId, author.id, "spam");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moderation-cli-"));
    const env = { ...process.env, DATABASE_URL: server.app.database.url!, DATA_DIR: dataDir, SEED: "none" };
    const cli = (...args: string[]) => promisify(execFile)("npx", ["tsx", "server/moderation-cli.ts", ...args], { env, cwd: process.cwd() });
    expect((await cli("list")).stdout).toContain(postId);
    expect((await cli("show", String(reportId))).stdout).toContain("別プロセスで隠される投稿");
    await expect(cli("hide", String(reportId))).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("--reason") });
    expect((await cli("hide", String(reportId), "--reason", "宣伝")).stdout).toContain("非表示にしました");
    expect((await db().selectFrom("posts").select("hidden_at").where("id", "=", postId).executeTakeFirstOrThrow()).hidden_at).not.toBeNull();
    expect((await notificationsOf(reporter.id))[0]!.body).toContain(ACTIONED);

    const socket = await server.socketOf(author);
    const closed = disconnected(socket, 60_000);
    const suspended = await cli("suspend", author.id, "--days", "3", "--reason", "繰り返しの宣伝");
    const exitedAt = Date.now();
    expect(suspended.stdout).toContain("利用停止にしました");
    await closed;
    // The socket closed when the decision committed, before the process had even exited, or soon after it.
    expect(Date.now() - exitedAt).toBeLessThan(DISCONNECT_BOUND_MS);
    expect((await author.api("/api/auth/me")).status).toBe(401);
    await expect(cli("nonsense")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("使い方") });
    expect((await cli("restore", author.id, "--reason", "解除")).stdout).toContain("元に戻しました");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
