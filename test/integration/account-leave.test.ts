import { randomUUID } from "node:crypto";
import sharp from "sharp";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leaveAccount } from "~/models/account.server";
import { purchaseListing } from "~/models/bookings/purchase.server";
import { creditPurchase, getBalance, holdInEscrow, ledgerProblems, transfer } from "~/models/coins.server";
import { createListing } from "~/models/listings.server";
import { decidePayout } from "~/models/payouts.server";
import { lockPresentUsers } from "~/models/user.server";
import { createBrowserMember, PASSWORD, signUp, supabaseFor } from "../support/auth";
import { testEngine } from "../support/database";
import { tableChecksums } from "../support/checksums";
import { startTestServer, type TestServer } from "../support/server";
import { connectSocket } from "../support/sockets";
import { signAccessToken } from "../../app/infra/auth/jwt";
import type { Realtime } from "../../app/infra/realtime";
import { TEST_OPERATOR } from "../support/operators";

/**
 * Leaving the service (退会, docs/product.md#accounts, ADR 028) through the real server, on whichever engine the run uses: refused
 * with the reason, changing nothing, while a booking (either side), escrow or a payout request is open; afterwards
 * sign-in, refresh and every existing token fail, the address signs up again as a new account, the profile and
 * others' history show 「退会したユーザー」, reviews, messages and the ledger stay whole, the coins left are forfeited
 * through the ledger, and nobody can start anything new with the account. The form is a plain POST.
 */

const LEFT = "退会したユーザー";
const GAME = "leave-test-game";
let app: TestServer;
const db = () => app.database.db;
const noRealtime: Realtime = { toUsers: () => {}, joinRoom: () => {}, disconnectUser: async () => {} };

beforeAll(async () => {
  app = await startTestServer({ seed: false });
  await db().insertInto("games").values({ slug: GAME, name: "退会テストゲーム", name_kana: "たいかいてすとげーむ" }).execute();
});
afterAll(async () => {
  await app?.close();
});

/** A member with a bearer session (and its refresh token) for the API and a cookie session from the login form. */
const newMember = (displayName: string) => createBrowserMember(app, displayName);
type TestMember = Awaited<ReturnType<typeof newMember>>;

const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});
/** The leaving form posted as a browser without JavaScript posts it. */
const leave = (member: TestMember, fields: Record<string, string> = { password: PASSWORD, confirm: "on" }) => member.page("/settings/account", form(fields));
/** A page's HTML without the comments React puts between adjacent text parts. */
const textOf = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "");

const buy = (userId: string, coins: number) => db().transaction().execute((trx) => creditPurchase(trx, { userId, coins, reference: `test-credit:${randomUUID()}` }));
async function listingOf(member: TestMember, title = "退会テストのチケット") {
  const response = await member.api("/api/listings", { json: { title, gameSlug: GAME, description: "", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 2 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { listing: { id: string } } }).data.listing.id;
}
async function book(buyer: TestMember, listingId: string, startInMs = 86_400_000) {
  const response = await buyer.api(`/api/listings/${listingId}/purchase`, {
    json: { units: 1, desiredStartTime: Date.now() + startInMs },
    headers: { "Idempotency-Key": randomUUID() },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
}
async function complete(buyer: TestMember, seller: TestMember, bookingId: string) {
  for (const [member, action] of [[seller, "accept"], [seller, "start"], [buyer, "complete"]] as const) {
    const response = await member.api(`/api/tickets/${bookingId}/${action}`, { json: {} });
    expect(response.status, action).toBe(200);
  }
}

/** One checksum per table (what a refusal must leave as it was); the mail outbox is sent on its own, so it is left out. */
const checksums = async () => (await tableChecksums(db(), { mail_outbox: null }))();

async function expectRefused(member: TestMember, reason: string) {
  const page = await textOf(await member.page("/settings/account"));
  expect(page).toContain("現在は退会できません");
  expect(page).toContain(reason);
  expect(page).not.toContain('name="password"');
  const before = await checksums();
  const response = await leave(member);
  expect(response.status).toBe(409);
  expect(await textOf(response)).toContain(reason);
  expect(await checksums()).toEqual(before);
  expect((await member.api("/api/auth/me")).status).toBe(200);
}

describe(`leaving is refused while something is open (${testEngine})`, () => {
  it("a pending booking refuses both its buyer and its seller, with the reason, and changes nothing", async () => {
    const [buyer, seller] = await Promise.all([newMember("予約中の買い手"), newMember("予約中の売り手")]);
    await buy(buyer.id, 1_000);
    const bookingId = await book(buyer, await listingOf(seller));
    await expectRefused(buyer, "進行中の予約が1件あります");
    await expectRefused(seller, "進行中の予約が1件あります");
    // The escrow of the booking is said too, to both.
    expect(await textOf(await buyer.page("/settings/account"))).toContain("予約の支払いとして300コインを預かり中です");
    // An accepted booking is still open; a cancelled one is not.
    expect((await seller.api(`/api/tickets/${bookingId}/accept`, { json: {} })).status).toBe(200);
    await expectRefused(seller, "進行中の予約が1件あります");
    expect((await buyer.api(`/api/tickets/${bookingId}/cancel`, { json: {} })).status).toBe(200);
    expect(await textOf(await buyer.page("/settings/account"))).not.toContain("現在は退会できません");
  });

  it("coins held in escrow refuse the payer and the payee", async () => {
    const [payer, payee] = await Promise.all([newMember("預けた人"), newMember("受け取る人")]);
    await buy(payer.id, 500);
    // An escrow without a booking (only the ledger's verb can make one), so the escrow rule is seen on its own.
    await db().transaction().execute((trx) => holdInEscrow(trx, { payerId: payer.id, payeeId: payee.id, amount: 200, reference: `test-escrow:${randomUUID()}` }));
    await expectRefused(payer, "予約の支払いとして200コインを預かり中です");
    await expectRefused(payee, "予約の支払いとして200コインを預かり中です");
    expect(await ledgerProblems(db())).toEqual([]);
  });

  it("a payout request not yet decided refuses the seller; once rejected they may leave, and the returned coins are forfeited", async () => {
    const [seller, tipper] = await Promise.all([newMember("振込申請中"), newMember("チップの人")]);
    await buy(tipper.id, 2_000);
    await db().transaction().execute((trx) => transfer(trx, { fromId: tipper.id, toId: seller.id, amount: 2_000, purpose: "tip", reference: `test-tip:${randomUUID()}`, feePercent: 0 }));
    const requested = await seller.api("/api/payouts", {
      json: { coins: 1_500, bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary", accountNumber: "1234567", accountHolder: "ゲーマー タロウ" },
      headers: { "Idempotency-Key": randomUUID() },
    });
    expect(requested.status).toBe(201);
    await expectRefused(seller, "振込申請中の売上が1件あります");
    await decidePayout({ db: db(), operator: TEST_OPERATOR, payoutId: ((await requested.json()) as { data: { payout: { id: string } } }).data.payout.id, decision: "rejected" });
    expect(await textOf(await seller.page("/settings/account"))).toContain("残高 2,000 コインは失効し、払い戻しできません");
    expect((await leave(seller)).status).toBe(302);
    const forfeit = await db().selectFrom("coin_transactions").select(["kind", "amount"]).where("user_id", "=", seller.id).where("kind", "=", "forfeit").execute();
    expect(forfeit).toEqual([{ kind: "forfeit", amount: -2_000 }]);
    expect(await ledgerProblems(db())).toEqual([]);
  });
});

describe(`the form (${testEngine})`, () => {
  it("without the box ticked, without a password or with a wrong one, is a 400 with the reason and changes nothing", async () => {
    const member = await newMember("確認しない人");
    const page = await textOf(await member.page("/settings/account"));
    expect(page).toContain("コインの残高はありません");
    expect(page).toContain('name="password"');
    const before = await checksums();
    const unticked = await leave(member, { password: PASSWORD });
    expect(unticked.status).toBe(400);
    expect(await textOf(unticked)).toContain("内容を確認し、チェックを入れてください");
    const empty = await leave(member, { password: "", confirm: "on" });
    expect(empty.status).toBe(400);
    expect(await textOf(empty)).toContain("入力してください");
    expect(await checksums()).toEqual(before);
    const wrong = await leave(member, { password: "not-the-password", confirm: "on" });
    expect(wrong.status).toBe(400);
    expect(await textOf(wrong)).toContain("パスワードが正しくありません");
    // A wrong password is a failed sign-in: counted for the sign-in rate limit, and nothing else.
    const after = await checksums();
    expect({ ...after, rate_limit_events: "", rate_limit_windows: "" }).toEqual({ ...before, rate_limit_events: "", rate_limit_windows: "" });
    expect((await member.api("/api/auth/me")).status).toBe(200);
  });

  it("an address made to look like a left account's beforehand does not stop anyone from leaving", async () => {
    const member = await newMember("先回りされた人");
    const squatter = await (await supabaseFor(app)).auth.signUp({ email: `deleted+${member.id}@deleted.invalid`, password: PASSWORD });
    expect(squatter.error).toBeNull();
    expect((await leave(member)).status).toBe(302);
    const auth = await db().selectFrom("auth_users").select(["email", "deleted_at"]).where("id", "=", member.id).executeTakeFirstOrThrow();
    expect(auth.email).toMatch(new RegExp(`^deleted\\+${member.id}\\.[0-9a-f]{12}@deleted\\.invalid$`));
    expect(auth.deleted_at).not.toBeNull();
  });

  it("signed out, the page and the form go to the login page", async () => {
    const page = await app.request("/settings/account");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: "/settings/account" })}`);
    const posted = await app.request("/settings/account", form({ password: PASSWORD, confirm: "on" }));
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toMatch(/^\/login\?/);
  });
});

describe(`after leaving (${testEngine})`, () => {
  let leaver: TestMember;
  let other: TestMember;
  let completedId: string;
  let unreviewedId: string;
  let listingId: string;
  let roomId: string;
  let imageUrls: string[];
  let forfeited: number;
  let cookiesBefore: string;
  let socketBefore: Socket;

  beforeAll(async () => {
    [leaver, other] = await Promise.all([newMember("去る人"), newMember("残る人")]);
    // A profile with everything a profile has: a bio, a game, an avatar.
    const png = async (background: string) => sharp({ create: { width: 64, height: 48, channels: 3, background } }).png().toBuffer();
    const upload = async (type: "avatar" | "post", bytes: Buffer) => {
      const body = new FormData();
      body.append("type", type);
      body.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "image.png");
      const response = await app.request("/api/uploads", { method: "POST", body, headers: { Authorization: `Bearer ${leaver.token}` } });
      expect(response.status).toBe(201);
      return ((await response.json()) as { data: { url: string } }).data.url;
    };
    const avatarUrl = await upload("avatar", await png("#ef4444"));
    const postImageUrl = await upload("post", await png("#22c55e"));
    imageUrls = [avatarUrl, postImageUrl];
    expect((await leaver.api("/api/user/profile", { json: { displayName: "去る人", bio: "よろしくお願いします", avatarUrl, games: [{ slug: GAME, rank: "ダイヤ" }] } })).ok).toBe(true);
    expect((await leaver.api("/api/posts/create", { json: { content: "最後の投稿", imageUrl: postImageUrl, isPublic: true } })).ok).toBe(true);
    expect((await leaver.api("/api/posts/create", { json: { content: "文字だけの投稿", imageUrl: null, isPublic: true } })).ok).toBe(true);

    // Two bookings of the leaver's listing that completed: one reviewed both ways (with a tip), one not reviewed yet.
    await buy(other.id, 5_000);
    await buy(leaver.id, 1_000);
    listingId = await listingOf(leaver, "去る人のチケット");
    completedId = await book(other, listingId, 60_000);
    await complete(other, leaver, completedId);
    unreviewedId = await book(other, listingId, 60_000);
    await complete(other, leaver, unreviewedId);
    expect((await other.api("/api/reviews", { json: { bookingId: completedId, rating: 5, comment: "楽しかった", tipAmount: 100 } })).status).toBe(201);
    expect((await leaver.api("/api/reviews", { json: { bookingId: completedId, rating: 4, comment: "ありがとう" } })).status).toBe(201);

    // Chat: the booking's DIRECT room, with a message from each.
    const room = await other.api("/api/chat/rooms", { json: { participantIds: [leaver.id], type: "DIRECT", name: null } });
    roomId = ((await room.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id;
    expect((await leaver.api("/api/chat/messages", { json: { roomId, content: "またね" } })).status).toBe(201);
    expect((await other.api("/api/chat/messages", { json: { roomId, content: "ありがとう！" } })).status).toBe(201);

    // Subscriptions both ways, and a community.
    expect((await leaver.api("/api/store/subscription-plan", { method: "PUT", json: { monthlyPrice: 100 } })).ok).toBe(true);
    expect((await other.api("/api/store/subscription-plan", { method: "PUT", json: { monthlyPrice: 100 } })).ok).toBe(true);
    for (const [from, to] of [[other, leaver], [leaver, other]] as const) {
      expect((await from.api("/api/subscriptions", { json: { subscribeeId: to.id }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(201);
    }
    const game = await db().selectFrom("games").select("id").where("slug", "=", GAME).executeTakeFirstOrThrow();
    await db().insertInto("communities").values({ slug: "leave-test-community", name: "退会テスト部", game_id: game.id }).execute();
    expect((await leaver.page("/community/leave-test-community", form({ intent: "join" }))).status).toBe(302);

    forfeited = (await getBalance(db(), leaver.id)).totalBalance;
    expect(forfeited).toBeGreaterThan(1_000);
    expect(await textOf(await leaver.page("/settings/account"))).toContain(`残高 ${forfeited.toLocaleString("ja-JP")} コインは失効し、払い戻しできません`);

    cookiesBefore = leaver.jar.header();
    expect(cookiesBefore).toContain("-auth-token");
    socketBefore = await connectSocket(app.url, leaver.token);
    const left = await leave(leaver);
    expect(left.status).toBe(302);
    expect(left.headers.get("Location")).toBe("/");
  });

  it("the browser is signed out and lands on / with the toast", async () => {
    expect(leaver.jar.header()).not.toContain("-auth-token");
    const top = await leaver.page("/");
    expect(top.status).toBe(200);
    const html = await textOf(top);
    expect(html).toContain("退会しました。ご利用ありがとうございました。");
    expect(html).toContain('href="/login"');
  });

  it("the old password, the refresh token, the access token and the old cookies all fail; every session is revoked", async () => {
    const password = await app.request("/auth/v1/token?grant_type=password", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: leaver.email, password: PASSWORD }),
    });
    expect(password.status).toBe(400);
    const refresh = await app.request("/auth/v1/token?grant_type=refresh_token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: leaver.refreshToken }),
    });
    expect(refresh.status).toBe(400);
    expect((await leaver.api("/api/auth/me")).status).toBe(401);
    expect((await app.request("/api/auth/me", { headers: { Cookie: cookiesBefore } })).status).toBe(401);
    // The socket it had open was closed by the server.
    await expect.poll(() => socketBefore.connected, { timeout: 1_000 }).toBe(false);
    expect((await app.request("/settings/account", { headers: { Cookie: cookiesBefore } })).status).toBe(302);
    const sessions = await db().selectFrom("auth_sessions").select(["revoked_at", "revoked_reason"]).where("user_id", "=", leaver.id).execute();
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    for (const session of sessions) expect(session.revoked_at).not.toBeNull();
    expect(sessions.some((session) => session.revoked_reason === "account_deleted")).toBe(true);
  });

  it("the same address signs up again as a new account", async () => {
    const supabase = await supabaseFor(app);
    const again = await supabase.auth.signUp({ email: leaver.email, password: "another-password-7" });
    expect(again.error).toBeNull();
    expect(again.data.user!.id).not.toBe(leaver.id);
    expect(again.data.user!.email).toBe(leaver.email);
  });

  it("the profile page shows 「退会したユーザー」 with no avatar, bio, games, posts or actions", async () => {
    for (const viewer of [null, other]) {
      const response = viewer ? await viewer.page(`/u/${leaver.id}`) : await app.request(`/u/${leaver.id}`);
      expect(response.status).toBe(200);
      const html = await textOf(response);
      expect(html).toContain(LEFT);
      expect(html).toContain("このユーザーは退会しています");
      for (const gone of ["去る人", "よろしくお願いします", "退会テストゲーム", "チャットする", imageUrls[0]!]) expect(html).not.toContain(gone);
    }
    const posts = await textOf(await app.request(`/u/${leaver.id}/posts`));
    expect(posts).not.toContain("最後の投稿");
    expect(posts).not.toContain("文字だけの投稿");
    const row = await db().selectFrom("users").selectAll().where("id", "=", leaver.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ display_name: LEFT, avatar_url: null, bio: "", email: null });
    expect(row.deleted_at).not.toBeNull();
    expect(await db().selectFrom("user_games").select("game_id").where("user_id", "=", leaver.id).execute()).toEqual([]);
  });

  it("posts and their images are deleted, from the database and from storage", async () => {
    expect(await db().selectFrom("posts").select("id").where("author_id", "=", leaver.id).execute()).toEqual([]);
    expect(await db().selectFrom("uploads").select("id").where("owner_id", "=", leaver.id).execute()).toEqual([]);
    for (const url of imageUrls) expect((await app.request(url)).status, url).toBe(404);
  });

  it("the other party's booking history is whole, with the name shown as 「退会したユーザー」; reviews and messages are kept", async () => {
    const bookings = ((await (await other.api("/api/tickets/all")).json()) as { data: { tickets: Array<{ id: string; status: string; seller: { uid: string; displayName: string } }> } }).data.tickets;
    const mine = bookings.filter((booking) => booking.seller.uid === leaver.id);
    expect(mine.map((booking) => booking.id).sort()).toEqual([completedId, unreviewedId].sort());
    for (const booking of mine) expect(booking).toMatchObject({ status: "completed", seller: { displayName: LEFT } });
    const management = await textOf(await other.page("/settings/ticket-management?role=buyer"));
    expect(management).toContain("去る人のチケット");
    expect(management).toContain(LEFT);

    const reviews = await db().selectFrom("reviews").select(["reviewer_id", "rating", "comment", "tip_amount"]).where("booking_id", "=", completedId).orderBy("rating").execute();
    expect(reviews).toEqual([
      { reviewer_id: leaver.id, rating: 4, comment: "ありがとう", tip_amount: 0 },
      { reviewer_id: other.id, rating: 5, comment: "楽しかった", tip_amount: 100 },
    ]);
    const messages = ((await (await other.api(`/api/chat/messages?roomId=${roomId}`)).json()) as { data: { messages: Array<{ content: string; sender: { uid: string; displayName: string } }> } }).data.messages;
    expect(messages.find((message) => message.content === "またね")?.sender).toMatchObject({ uid: leaver.id, displayName: LEFT });
    expect(messages.some((message) => message.content === "ありがとう！")).toBe(true);
    expect(messages.length).toBeGreaterThanOrEqual(4);
  });

  it("the coins left are forfeited through the ledger, which stays whole", async () => {
    expect(await getBalance(db(), leaver.id)).toEqual({ purchased: 0, earned: 0, totalBalance: 0 });
    const rows = await db().selectFrom("coin_transactions").select(["kind", "amount", "reference"]).where("user_id", "=", leaver.id).where("kind", "=", "forfeit").execute();
    expect(rows).toEqual([{ kind: "forfeit", amount: -forfeited, reference: `leave:${leaver.id}` }]);
    // The rest of the trail is untouched: the sale, the tip, the subscriptions.
    const kinds = new Set((await db().selectFrom("coin_transactions").select("kind").where("user_id", "=", leaver.id).execute()).map((row) => row.kind));
    expect([...kinds].sort()).toEqual(["forfeit", "purchase", "sale", "subscription", "subscription_income", "tip_received"]);
    expect(await ledgerProblems(db())).toEqual([]);
  });

  it("listings are archived, subscriptions both ways and the plan ended, the community left", async () => {
    const listings = await db().selectFrom("listings").select("status").where("seller_id", "=", leaver.id).execute();
    expect(listings.map((listing) => listing.status)).toEqual(["archived"]);
    expect(await db().selectFrom("subscription_plans").select("seller_id").where("seller_id", "=", leaver.id).execute()).toEqual([]);
    const subscriptions = await db()
      .selectFrom("subscriptions")
      .select("expires_at")
      .where((eb) => eb.or([eb("subscriber_id", "=", leaver.id), eb("subscribee_id", "=", leaver.id)]))
      .execute();
    expect(subscriptions).toHaveLength(2);
    for (const subscription of subscriptions) expect(subscription.expires_at.getTime()).toBeLessThanOrEqual(Date.now());
    const community = await db().selectFrom("communities").select("members_count").where("slug", "=", "leave-test-community").executeTakeFirstOrThrow();
    expect(community.members_count).toBe(0);
    expect(await db().selectFrom("community_members").select("user_id").where("user_id", "=", leaver.id).execute()).toEqual([]);
  });

  it("nobody can book, subscribe to, review or tip, or start a chat with the account", async () => {
    const booking = await other.api(`/api/listings/${listingId}/purchase`, { json: { units: 1, desiredStartTime: Date.now() + 86_400_000 }, headers: { "Idempotency-Key": randomUUID() } });
    expect(booking.status).toBe(404);
    const subscription = await other.api("/api/subscriptions", { json: { subscribeeId: leaver.id }, headers: { "Idempotency-Key": randomUUID() } });
    expect(subscription.status).toBe(404);
    const review = await other.api("/api/reviews", { json: { bookingId: unreviewedId, rating: 5, comment: "", tipAmount: 100 } });
    expect(review.status).toBe(404);
    expect(((await review.json()) as { error: { message: string } }).error.message).toBe("このユーザーは退会しています");
    const chat = await other.api("/api/chat/rooms", { json: { participantIds: [leaver.id], type: "GROUP", name: "三人で" } });
    expect(chat.status).toBe(404);
    expect((await other.page(`/chat?with=${leaver.id}`)).status).toBe(404);
    expect(await ledgerProblems(db())).toEqual([]);
  });
});

describe(`a booking made while its seller leaves (${testEngine})`, () => {
  it("either the booking happens and leaving is refused, or the seller has left and the booking is refused; never both", async () => {
    const buyers = await Promise.all([newMember("競う買い手")]);
    await buy(buyers[0]!.id, 100_000);
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const sellerId = randomUUID();
      await db().insertInto("users").values({ id: sellerId, display_name: `競う売り手${round}` }).execute();
      const listing = await createListing({ db: db(), sellerId, input: { title: "競争", gameSlug: GAME, description: "", pricePerUnit: 100, minutesPerUnit: 30, maxUnits: 1 } });
      // The leaving starts a little later each round, so the two meet at different points of the booking.
      const [booked, left] = await Promise.allSettled([
        purchaseListing({ db: db(), realtime: noRealtime, buyerId: buyers[0]!.id, listingId: listing.id, input: { units: 1, desiredStartTime: new Date(Date.now() + 86_400_000), note: "" }, idempotencyKey: randomUUID() }),
        new Promise((resolve) => setTimeout(resolve, round * 2)).then(() => leaveAccount({ db: db(), userId: sellerId })),
      ]);
      const open = await db().selectFrom("bookings").select("id").where("seller_id", "=", sellerId).execute();
      const seller = await db().selectFrom("users").select("deleted_at").where("id", "=", sellerId).executeTakeFirstOrThrow();
      if (booked.status === "fulfilled") {
        expect(left).toMatchObject({ status: "rejected", reason: { code: "open_matters" } });
        expect(open).toHaveLength(1);
        expect(seller.deleted_at).toBeNull();
        outcomes.add("booked");
      } else {
        expect(left.status).toBe("fulfilled");
        expect(booked.reason).toMatchObject({ status: 404, code: "listing_not_found" });
        expect(open).toHaveLength(0);
        expect(seller.deleted_at).not.toBeNull();
        outcomes.add("left");
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
    expect(await ledgerProblems(db())).toEqual([]);
  });

  it("leaving waits for a booking that holds the seller's row, then sees it and is refused", async () => {
    const [buyerId, sellerId] = [randomUUID(), randomUUID()];
    await db().insertInto("users").values([{ id: buyerId, display_name: "待たせる買い手" }, { id: sellerId, display_name: "待つ売り手" }]).execute();
    const listing = await createListing({ db: db(), sellerId, input: { title: "順番", gameSlug: GAME, description: "", pricePerUnit: 100, minutesPerUnit: 30, maxUnits: 1 } });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    // What purchaseListing's transaction does first, stopped before its commit.
    const booking = db().transaction().execute(async (trx) => {
      await lockPresentUsers(trx, [buyerId, sellerId]);
      await trx
        .insertInto("bookings")
        .values({
          listing_id: listing.id,
          buyer_id: buyerId,
          seller_id: sellerId,
          title: "順番",
          price_per_unit: 100,
          minutes_per_unit: 30,
          units: 1,
          total_price: 100,
          total_minutes: 30,
          desired_start_at: new Date(Date.now() + 86_400_000),
          accept_deadline_at: new Date(Date.now() + 3_600_000),
          idempotency_key: randomUUID(),
        })
        .execute();
      holding();
      await gate;
    });
    await held;
    const leaving = leaveAccount({ db: db(), userId: sellerId });
    const early = await Promise.race([leaving.then(() => "finished", () => "finished"), new Promise((resolve) => setTimeout(() => resolve("waiting"), 200))]);
    expect(early).toBe("waiting");
    release();
    await booking;
    await expect(leaving).rejects.toMatchObject({ status: 409, code: "open_matters", matters: { openBookings: 1 } });
    expect((await db().selectFrom("users").select("deleted_at").where("id", "=", sellerId).executeTakeFirstOrThrow()).deleted_at).toBeNull();
  });
});

describe("with hosted Supabase (the app cannot delete the account there)", () => {
  let hosted: TestServer;
  const secret = "leave-test-secret-".padEnd(40, "x");
  beforeAll(async () => {
    hosted = await startTestServer({ seed: false, env: { SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "anon-".padEnd(40, "k"), SUPABASE_JWT_SECRET: secret } });
  });
  afterAll(async () => {
    await hosted?.close();
  });

  it("the app refuses a token of an account that left, though the token itself is still valid", async () => {
    const userId = randomUUID();
    await hosted.database.db.insertInto("users").values({ id: userId, display_name: "ホストの人" }).execute();
    const { token } = await signAccessToken({ secret, issuer: "http://127.0.0.1:9/auth/v1", userId, email: "hosted@example.jp", sessionId: randomUUID() });
    const me = () => hosted.request("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);
    await leaveAccount({ db: hosted.database.db, userId });
    expect((await me()).status).toBe(401);
  });
});
