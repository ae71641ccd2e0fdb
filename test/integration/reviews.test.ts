import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "~/models/coins.server";
import { createMember, type Member } from "../support/auth";
import { collect, serverWithSockets, settle } from "../support/sockets";

/**
 * Reviews and tips through the real server (docs/product.md#validation, #roles, #api; docs/product.md#data, #coins), on whichever engine the run uses:
 * only a participant of a completed booking, once; a tip only from the buyer, moved through the ledger in the
 * review's transaction; the reviewee notified; ratings on listings and bookings.
 */

const server = serverWithSockets({ seed: false });
const GAME = "review-test-game";

beforeAll(async () => {
  await server.app.database.db.insertInto("games").values({ slug: GAME, name: "レビューテスト", name_kana: "れびゅーてすと" }).execute();
});

const buyCoins = async (member: Member, packageId: number) =>
  expect((await member.api("/api/coins/orders", { json: { packageId }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(201);
const wallet = async (member: Member) => {
  const row = await server.app.database.db.selectFrom("coin_wallets").select(["purchased", "earned"]).where("user_id", "=", member.id).executeTakeFirst();
  return { purchased: row?.purchased ?? 0, earned: row?.earned ?? 0 };
};
const act = async (member: Member, id: string, action: string) => {
  const response = await member.api(`/api/tickets/${id}/${action}`, { method: "POST", json: {} });
  expect(response.status, `${action}`).toBe(200);
};
const review = (member: Member, body: Record<string, unknown>) => member.api("/api/reviews", { json: body });
const errorOf = async (response: Response) => (await response.json()).error as { code: string; message: string; fieldErrors?: Record<string, string[]> };

/** A seller, a buyer with 1,000 coins, and a booking of 300 coins in the given state. */
async function booking(state: "pending" | "completed" = "completed") {
  const [seller, buyer] = await Promise.all([createMember(server.app, "レビューされる人"), createMember(server.app, "レビューする人")]);
  await buyCoins(buyer, 2);
  const listing = await seller.api("/api/listings", { json: { title: "一緒に遊ぼう", gameSlug: GAME, pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 2 } });
  const listingId = (await listing.json()).data.listing.id as string;
  const bought = await buyer.api(`/api/listings/${listingId}/purchase`, {
    json: { units: 1, desiredStartTime: Date.now() + 60_000 },
    headers: { "Idempotency-Key": randomUUID() },
  });
  const bookingId = (await bought.json()).data.ticket.id as string;
  if (state === "completed") {
    await act(seller, bookingId, "accept");
    await act(seller, bookingId, "start");
    await act(buyer, bookingId, "complete");
  }
  return { seller, buyer, bookingId, listingId };
}

describe("POST /api/reviews", () => {
  it("the buyer reviews with a tip: the tip moves through the ledger less the fee, the seller is notified with it", async () => {
    const { seller, buyer, bookingId } = await booking();
    const [buyerBefore, sellerBefore] = [await wallet(buyer), await wallet(seller)];
    const heard = collect(await server.socketOf(seller), "notification:new");
    const response = await review(buyer, { bookingId, rating: 5, comment: "  とても楽しかったです  ", tipAmount: 500 });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ success: true, data: { review: { id: expect.any(String) } } });
    // 500 from the buyer (purchased coins first: 1,000 − 300 booked = 700 purchased); the seller gets 400.
    expect(await wallet(buyer)).toEqual({ purchased: buyerBefore.purchased - 500, earned: buyerBefore.earned });
    expect(await wallet(seller)).toEqual({ purchased: sellerBefore.purchased, earned: sellerBefore.earned + 400 });
    const stored = await server.app.database.db.selectFrom("reviews").selectAll().where("booking_id", "=", bookingId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ reviewer_id: buyer.id, reviewee_id: seller.id, rating: 5, comment: "とても楽しかったです", tip_amount: 500 });
    const ledger = await server.app.database.db.selectFrom("coin_transactions").select(["kind", "user_id", "amount", "fee"]).where("reference", "=", `review:${stored.id}`).orderBy("id").execute();
    expect(ledger).toEqual([
      { kind: "tip_sent", user_id: buyer.id, amount: -500, fee: 0 },
      { kind: "tip_received", user_id: seller.id, amount: 400, fee: 100 },
    ]);
    await settle();
    expect(heard).toEqual([expect.objectContaining({ type: "review", title: "レビューする人さんからレビューが届きました（★5）", body: expect.stringContaining("チップ 500コイン") })]);
    expect(await ledgerProblems(server.app.database.db)).toEqual([]);
  });

  it("the seller reviews the buyer without a tip; a seller's tip is refused (403) and writes nothing", async () => {
    const { seller, buyer, bookingId } = await booking();
    const tipped = await review(seller, { bookingId, rating: 4, tipAmount: 100 });
    expect(tipped.status).toBe(403);
    expect(await errorOf(tipped)).toMatchObject({ code: "tip_buyer_only", message: "チップを送れるのは購入者だけです" });
    expect(await server.app.database.db.selectFrom("reviews").select("id").where("booking_id", "=", bookingId).execute()).toEqual([]);
    const ok = await review(seller, { bookingId, rating: 4, comment: null, tipAmount: 0 });
    expect(ok.status).toBe(201);
    const stored = await server.app.database.db.selectFrom("reviews").selectAll().where("booking_id", "=", bookingId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ reviewer_id: seller.id, reviewee_id: buyer.id, rating: 4, comment: "", tip_amount: 0 });
  });

  it("once per booking and reviewer: a second review is 409, and two at once make one", async () => {
    const { seller, buyer, bookingId } = await booking();
    const results = await Promise.all(Array.from({ length: 6 }, () => review(buyer, { bookingId, rating: 5, tipAmount: 100 })));
    expect(results.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const conflict = results.find((response) => response.status === 409)!;
    expect(await errorOf(conflict)).toMatchObject({ code: "already_reviewed", message: "この取引はすでにレビュー済みです" });
    expect(await server.app.database.db.selectFrom("reviews").select("id").where("booking_id", "=", bookingId).execute()).toHaveLength(1);
    // One tip: 100, of which the seller got 80.
    expect((await wallet(seller)).earned).toBe(240 + 80);
    // The seller's own review is still theirs to write.
    expect((await review(seller, { bookingId, rating: 5, tipAmount: 0 })).status).toBe(201);
    expect(await ledgerProblems(server.app.database.db)).toEqual([]);
  });

  it("a tip above the buyer's coins is 422 コインが足りません and writes nothing", async () => {
    const { buyer, bookingId } = await booking();
    const response = await review(buyer, { bookingId, rating: 3, tipAmount: 1000 });
    expect(response.status).toBe(422);
    expect(await errorOf(response)).toMatchObject({ code: "insufficient_coins", message: "コインが足りません" });
    expect(await server.app.database.db.selectFrom("reviews").select("id").where("booking_id", "=", bookingId).execute()).toEqual([]);
    expect((await review(buyer, { bookingId, rating: 3, tipAmount: 0 })).status).toBe(201);
  });

  it("a stranger's booking is 404, a booking not completed 409, bad input 400 with Japanese field errors, no session 401", async () => {
    const { bookingId } = await booking();
    const stranger = await createMember(server.app, "通りすがり");
    const foreign = await review(stranger, { bookingId, rating: 5, tipAmount: 0 });
    expect(foreign.status).toBe(404);
    expect(await errorOf(foreign)).toMatchObject({ code: "booking_not_found", message: "取引が見つかりません" });
    expect((await review(stranger, { bookingId: randomUUID(), rating: 5 })).status).toBe(404);

    const pending = await booking("pending");
    const early = await review(pending.buyer, { bookingId: pending.bookingId, rating: 5, tipAmount: 0 });
    expect(early.status).toBe(409);
    expect(await errorOf(early)).toMatchObject({ code: "not_completed", message: "レビューできるのは完了した取引だけです" });

    const bad = await review(pending.buyer, { bookingId, rating: 0, comment: "あ".repeat(501), tipAmount: 150 });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).fieldErrors).toEqual({
      rating: ["評価（星）を選んでください"],
      comment: ["500文字以内で入力してください"],
      tipAmount: ["選択肢から選んでください"],
    });
    const anonymous = await server.app.request("/api/reviews", { method: "POST", body: JSON.stringify({ bookingId, rating: 5 }), headers: { "Content-Type": "application/json" } });
    expect(anonymous.status).toBe(401);
  });

  it("someone who blocked you cannot be reviewed by you (403)", async () => {
    const { seller, buyer, bookingId } = await booking();
    expect((await seller.api(`/api/users/${buyer.id}/block`, { method: "POST" })).status).toBe(200);
    const response = await review(buyer, { bookingId, rating: 1, tipAmount: 0 });
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatchObject({ code: "blocked" });
  });
});

describe("ratings", () => {
  it("a seller's average and count show on their listings and on the bookings of both sides", async () => {
    const first = await booking();
    await review(first.buyer, { bookingId: first.bookingId, rating: 5, tipAmount: 0 });
    const listing = await (await server.app.request(`/api/listings/${first.listingId}`)).json();
    expect(listing.data.listing.seller.rating).toEqual({ average: 5, count: 1 });
    const buyerView = (await (await first.buyer.api("/api/tickets/all")).json()).data.tickets as Array<{ id: string; seller: { rating: unknown }; canReview: boolean }>;
    const bought = buyerView.find((item) => item.id === first.bookingId)!;
    expect(bought.seller.rating).toEqual({ average: 5, count: 1 });
    expect(bought.canReview).toBe(false);
    const sellerView = (await (await first.seller.api("/api/tickets/all")).json()).data.tickets as Array<{ id: string; canReview: boolean }>;
    expect(sellerView.find((item) => item.id === first.bookingId)!.canReview).toBe(true);
  });

  it("the average is rounded to one decimal", async () => {
    const { seller, buyer, bookingId, listingId } = await booking();
    await review(buyer, { bookingId, rating: 4, tipAmount: 0 });
    // Two more bookings of the same seller, reviewed 5 and 5: (4 + 5 + 5) / 3 = 4.67 → 4.7.
    for (const rating of [5, 5]) {
      const other = await createMember(server.app, "別の購入者");
      await buyCoins(other, 2);
      const bought = await other.api(`/api/listings/${listingId}/purchase`, { json: { units: 1, desiredStartTime: Date.now() + 60_000 }, headers: { "Idempotency-Key": randomUUID() } });
      const id = (await bought.json()).data.ticket.id as string;
      await act(seller, id, "accept");
      await act(seller, id, "start");
      await act(other, id, "complete");
      expect((await review(other, { bookingId: id, rating, tipAmount: 0 })).status).toBe(201);
    }
    const listing = await (await server.app.request(`/api/listings/${listingId}`)).json();
    expect(listing.data.listing.seller.rating).toEqual({ average: 4.7, count: 3 });
  });
});
