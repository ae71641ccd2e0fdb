import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingSweepJobs } from "~/models/bookings/sweeper.server";
import { getBooking, listBookings, listUpcoming } from "~/models/bookings/queries.server";
import { blockUser } from "~/models/blocks.server";
import { CoinError, getBalance, ledgerProblems } from "~/models/coins.server";
import { updateListing, type Listing } from "~/models/listings.server";
import { bookingHelpers, FEE, GAME, HOUR, MIN, newBookingsDatabase, recorder, START, T0, at } from "../support/bookings";
import { testEngine, type TestDatabase } from "../support/database";
import { startSweeper } from "../../server/sweeper";

/**
 * Bookings at the model level (docs/product.md#bookings): every transition by the right party, every wrong party and wrong
 * state, repeats that change nothing, the money at each step, and the sweeper's deadlines. Time is moved with
 * `now`; the realtime side is a recorder of what would have been emitted (fixtures: test/support/bookings.ts).
 */

// One database for the file (a fresh PGlite is slow to migrate); the sweeper's tests first settle what is left.
let database: TestDatabase;
beforeAll(async () => {
  database = await newBookingsDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

describe(`bookings on ${testEngine}`, () => {
  const h = bookingHelpers(() => database);
  const { rec, newUsers, buy, newListing, book, act, counts, total, noLedgerProblems, ledgerOf, refused, repeated } = h;

  it("runs pending → accepted → in_progress → extended → completed, each step by its party only, repeats changing nothing", async () => {
    const [seller, buyer, stranger] = (await newUsers(3)) as [string, string, string];
    await buy(buyer, 1000);
    const listing = await newListing(seller);

    // Purchase: 2 units × 300 coins held in escrow.
    const before = await counts();
    const { booking: booked, isNew } = await book(buyer, listing, { units: 2 });
    expect(isNew).toBe(true);
    expect(booked).toMatchObject({ status: "pending", units: 2, totalPrice: 600, totalMinutes: 60, isSeller: false, acceptDeadline: at(48 * HOUR).toISOString() });
    const id = booked.id;
    expect(await total(buyer)).toBe(400);
    expect(await ledgerOf(id)).toEqual([["booking", buyer, -600, 0]]);
    expect(await counts()).toMatchObject({ ledger: before.ledger + 1, notifications: before.notifications + 1, messages: before.messages + 1 });
    await noLedgerProblems();

    // Nothing but acceptance (or cancellation) while pending.
    await refused(() => act(stranger, id, "accept", T0), 404, "booking_not_found");
    await refused(() => act(buyer, id, "accept", T0), 403, "not_allowed");
    await refused(() => act(seller, id, "start", at(START)), 409, "invalid_state");
    await refused(() => act(buyer, id, "start", at(START)), 403, "not_allowed");
    await refused(() => act(buyer, id, "check-in", at(START)), 409, "invalid_state");
    await refused(() => act(buyer, id, "complete", at(START)), 409, "invalid_state");
    await refused(() => act(seller, id, "extend", at(START), { units: 1, idempotencyKey: randomUUID() }), 403, "not_allowed");
    await refused(() => act(buyer, id, "extend", at(START), { units: 1, idempotencyKey: randomUUID() }), 409, "invalid_state");

    // Accept, once.
    let step = await counts();
    const accepted = await act(seller, id, "accept", at(HOUR));
    expect(accepted.changed).toBe(true);
    expect(accepted.booking).toMatchObject({ status: "accepted", acceptedAt: at(HOUR).toISOString(), isSeller: true });
    expect(await counts()).toEqual({ ...step, notifications: step.notifications + 1, emitted: step.emitted + 1 });
    expect(rec.emitted.at(-1)).toMatchObject({ userIds: [buyer], event: "notification:new", payload: { type: "booking" } });
    await repeated(() => act(seller, id, "accept", at(HOUR + MIN)));
    await refused(() => act(buyer, id, "accept", at(HOUR)), 403, "not_allowed");

    // Too early to start or check in; the seller may no longer cancel once the start time has passed.
    await refused(() => act(seller, id, "start", at(START - 16 * MIN)), 409, "invalid_state");
    await refused(() => act(buyer, id, "check-in", at(START - 16 * MIN)), 409, "invalid_state");
    await refused(() => act(seller, id, "cancel", at(START + MIN)), 409, "invalid_state");
    await refused(() => act(stranger, id, "start", at(START)), 404, "booking_not_found");
    await refused(() => act(stranger, id, "check-in", at(START)), 404, "booking_not_found");

    // The buyer checks in from 15 minutes before, once.
    step = await counts();
    const checkedIn = await act(buyer, id, "check-in", at(START - 15 * MIN));
    expect(checkedIn.booking.buyerCheckedInAt).toBe(at(START - 15 * MIN).toISOString());
    expect(await counts()).toMatchObject({ notifications: step.notifications + 1, ledger: step.ledger });
    await repeated(() => act(buyer, id, "check-in", at(START)));

    // The seller starts: ends in 60 minutes, counts as their check-in, tells the buyer with game:started.
    step = await counts();
    const startAt = at(START - 10 * MIN);
    const started = await act(seller, id, "start", startAt);
    expect(started.booking).toMatchObject({
      status: "in_progress",
      startedAt: startAt.toISOString(),
      endsAt: new Date(startAt.getTime() + 60 * MIN).toISOString(),
      sellerCheckedInAt: startAt.toISOString(),
    });
    expect(rec.emitted.filter((e) => e.event === "game:started")).toEqual([{ userIds: [buyer], event: "game:started", payload: { bookingId: id, ticketTitle: "ランク上げ手伝います" } }]);
    expect(await counts()).toMatchObject({ notifications: step.notifications + 1, ledger: step.ledger });
    await repeated(() => act(seller, id, "start", at(START)));
    await repeated(() => act(seller, id, "check-in", at(START)));
    await refused(() => act(seller, id, "accept", at(START)), 409, "invalid_state");
    await refused(() => act(buyer, id, "cancel", at(START)), 409, "invalid_state");
    await refused(() => act(seller, id, "cancel", at(START)), 409, "invalid_state");

    // The buyer extends by one unit (300 coins, 30 minutes), once per key.
    const key = randomUUID();
    await refused(() => act(stranger, id, "extend", at(START), { units: 1, idempotencyKey: key }), 404, "booking_not_found");
    await refused(() => act(seller, id, "extend", at(START), { units: 1, idempotencyKey: key }), 403, "not_allowed");
    step = await counts();
    const extended = await act(buyer, id, "extend", at(START), { units: 1, idempotencyKey: key });
    expect(extended.changed).toBe(true);
    expect(extended.booking).toMatchObject({
      units: 3,
      totalPrice: 900,
      totalMinutes: 90,
      endsAt: new Date(startAt.getTime() + 90 * MIN).toISOString(),
    });
    expect(await counts()).toMatchObject({ ledger: step.ledger + 1, notifications: step.notifications + 1, extensions: step.extensions + 1 });
    const extendedEvents = rec.emitted.filter((e) => e.event === "game:extended");
    expect(extendedEvents).toEqual([{ userIds: [buyer, seller], event: "game:extended", payload: { bookingId: id, message: expect.stringContaining("1枠（30分）延長") } }]);
    expect(await total(buyer)).toBe(100);
    await noLedgerProblems();
    const again = await repeated(() => act(buyer, id, "extend", at(START + MIN), { units: 1, idempotencyKey: key }));
    expect(again.totalPrice).toBe(900);
    await refused(() => act(buyer, id, "extend", at(START), { units: 2, idempotencyKey: key }), 409, "idempotency_conflict");
    // More than the buyer has (100 coins left): refused by the ledger, nothing written.
    await refused(() => act(buyer, id, "extend", at(START), { units: 1, idempotencyKey: randomUUID() }), 422, "insufficient_coins");
    expect((await h.db().selectFrom("bookings").select("total_price").where("id", "=", id).executeTakeFirstOrThrow()).total_price).toBe(900);

    // The seller completes only once the end has passed; the buyer at any time.
    const endsAt = new Date(startAt.getTime() + 90 * MIN);
    await refused(() => act(seller, id, "complete", new Date(endsAt.getTime() - MIN)), 409, "invalid_state");
    await refused(() => act(stranger, id, "complete", endsAt), 404, "booking_not_found");
    step = await counts();
    const completed = await act(buyer, id, "complete", at(START + 30 * MIN));
    expect(completed.booking).toMatchObject({ status: "completed", completedBy: "buyer", completedAt: at(START + 30 * MIN).toISOString() });
    // Closed, it offers no action, not even a refused one.
    expect(completed.booking.actions).toEqual([]);
    // 900 coins less the 20% fee (180) to the seller's earned balance.
    expect(await getBalance(h.db(), seller)).toEqual({ purchased: 0, earned: 720, totalBalance: 720 });
    expect(await ledgerOf(id)).toEqual([
      ["booking", buyer, -600, 0],
      ["booking", buyer, -300, 0],
      ["sale", seller, 720, 180],
    ]);
    expect(await counts()).toMatchObject({ ledger: step.ledger + 1, notifications: step.notifications + 1 });
    await noLedgerProblems();
    await repeated(() => act(buyer, id, "complete", at(START + HOUR)));
    await repeated(() => act(seller, id, "complete", endsAt));
    for (const [who, action] of [
      [buyer, "cancel"],
      [seller, "cancel"],
      [seller, "accept"],
      [seller, "start"],
      [buyer, "check-in"],
    ] as const) {
      await refused(() => act(who, id, action, endsAt), 409, "invalid_state");
    }
    await refused(() => act(buyer, id, "extend", endsAt, { units: 1, idempotencyKey: randomUUID() }), 409, "invalid_state");
    expect(await getBalance(h.db(), seller)).toEqual({ purchased: 0, earned: 720, totalBalance: 720 });
    expect(await total(buyer)).toBe(100);
  });

  it("lets the seller complete once the session has ended, paying the fee rounded down", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 1000);
    const listing = await newListing(seller, { pricePerUnit: 500, minutesPerUnit: 15 });
    const { booking } = await book(buyer, listing, { units: 1 });
    await act(seller, booking.id, "accept", T0);
    await act(seller, booking.id, "start", at(START));
    await refused(() => act(seller, booking.id, "complete", at(START + 15 * MIN - 1)), 409, "invalid_state");
    const done = await act(seller, booking.id, "complete", at(START + 15 * MIN));
    expect(done.booking).toMatchObject({ status: "completed", completedBy: "seller" });
    expect(await getBalance(h.db(), seller)).toEqual({ purchased: 0, earned: 400, totalBalance: 400 });
    expect(await total(buyer)).toBe(500);
    await noLedgerProblems();

    // Of an amount that is not a multiple of 5 the fee is rounded down (the seller never gets less than their share).
    const [seller2, buyer2] = (await newUsers(2)) as [string, string];
    await buy(buyer2, 2000);
    await h.db().insertInto("listings").values({ seller_id: seller2, game_id: (await h.db().selectFrom("games").select("id").where("slug", "=", GAME).executeTakeFirstOrThrow()).id, title: "端数", price_per_unit: 103, minutes_per_unit: 15, max_units: 8 }).execute();
    const odd = await h.db().selectFrom("listings").selectAll().where("seller_id", "=", seller2).executeTakeFirstOrThrow();
    const oddBooking = await book(buyer2, { id: odd.id } as Listing, { units: 3 });
    await act(seller2, oddBooking.booking.id, "accept", T0);
    await act(seller2, oddBooking.booking.id, "start", at(START));
    await act(buyer2, oddBooking.booking.id, "complete", at(START + MIN));
    // 309 coins: fee floor(61.8) = 61, the seller gets 248.
    expect(await ledgerOf(oddBooking.booking.id)).toEqual([
      ["booking", buyer2, -309, 0],
      ["sale", seller2, 248, 61],
    ]);
    await noLedgerProblems();
  });

  it("cancels: either side while pending, either side before the start when accepted, after it only the buyer of a no-show seller — each a full refund, once", async () => {
    const [seller, buyer, stranger] = (await newUsers(3)) as [string, string, string];
    await buy(buyer, 3000);
    const listing = await newListing(seller);
    const messagesOf = async (bookingType: "ticket_purchased" | "ticket_cancelled") =>
      (await h.db().selectFrom("chat_messages").select(["message_type", "metadata", "sender_id"]).where("message_type", "=", bookingType).execute()).filter(
        (row) => (typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata)?.buyerId === buyer,
      );

    // Pending, by the buyer.
    const a = (await book(buyer, listing)).booking;
    expect(await total(buyer)).toBe(2700);
    await refused(() => act(stranger, a.id, "cancel", T0), 404, "booking_not_found");
    let step = await counts();
    const cancelled = await act(buyer, a.id, "cancel", at(MIN));
    expect(cancelled.booking).toMatchObject({ status: "cancelled", cancelledBy: "buyer", cancelReason: "buyer", cancelledAt: at(MIN).toISOString() });
    expect(await total(buyer)).toBe(3000);
    expect(await ledgerOf(a.id)).toEqual([
      ["booking", buyer, -300, 0],
      ["refund", buyer, 300, 0],
    ]);
    expect(await counts()).toMatchObject({ ledger: step.ledger + 1, notifications: step.notifications + 1, messages: step.messages + 1 });
    const notice = (await messagesOf("ticket_cancelled")).at(-1)!;
    expect(notice.sender_id).toBe(buyer);
    expect(rec.emitted.at(-2)).toMatchObject({ userIds: [buyer, seller], event: "chat:message", payload: { messageType: "ticket_cancelled", metadata: { type: "ticket_cancelled", buyerId: buyer } } });
    await noLedgerProblems();
    await repeated(() => act(buyer, a.id, "cancel", at(2 * MIN)));
    await repeated(() => act(seller, a.id, "cancel", at(2 * MIN)));
    await refused(() => act(seller, a.id, "accept", at(2 * MIN)), 409, "invalid_state");

    // Pending, by the seller.
    const b = (await book(buyer, listing)).booking;
    expect((await act(seller, b.id, "cancel", at(MIN))).booking).toMatchObject({ status: "cancelled", cancelledBy: "seller", cancelReason: "seller" });
    expect(await total(buyer)).toBe(3000);

    // Accepted, before the desired start: either side.
    for (const [who, reason] of [
      [seller, "seller"],
      [buyer, "buyer"],
    ] as const) {
      const c = (await book(buyer, listing)).booking;
      await act(seller, c.id, "accept", at(MIN));
      expect((await act(who, c.id, "cancel", at(START - 1))).booking).toMatchObject({ status: "cancelled", cancelReason: reason, acceptedAt: at(MIN).toISOString() });
      expect(await total(buyer)).toBe(3000);
    }

    // Accepted, the start passed and the seller never came: the buyer only, from 15 minutes after the start.
    const d = (await book(buyer, listing)).booking;
    await act(seller, d.id, "accept", at(MIN));
    await refused(() => act(seller, d.id, "cancel", at(START)), 409, "invalid_state");
    await refused(() => act(buyer, d.id, "cancel", at(START)), 409, "invalid_state");
    await refused(() => act(buyer, d.id, "cancel", at(START + 15 * MIN - 1)), 409, "invalid_state");
    step = await counts();
    const noShow = await act(buyer, d.id, "cancel", at(START + 15 * MIN));
    expect(noShow.booking).toMatchObject({ status: "cancelled", cancelledBy: "buyer", cancelReason: "no_show" });
    expect(await total(buyer)).toBe(3000);
    expect(await counts()).toMatchObject({ ledger: step.ledger + 1, notifications: step.notifications + 1, messages: step.messages + 1 });
    await noLedgerProblems();
    await repeated(() => act(buyer, d.id, "cancel", at(START + HOUR)));

    // …but not when the seller checked in.
    const e = (await book(buyer, listing)).booking;
    await act(seller, e.id, "accept", at(MIN));
    await act(seller, e.id, "check-in", at(START - 5 * MIN));
    await refused(() => act(buyer, e.id, "cancel", at(START + HOUR)), 409, "invalid_state");
    // The buyer may still check in; the seller start late.
    await act(buyer, e.id, "check-in", at(START + HOUR));
    expect((await act(seller, e.id, "start", at(START + HOUR))).booking.status).toBe("in_progress");
    expect(await total(buyer)).toBe(2700);

    // Every cancellation posted its notice in the pair's one DIRECT room.
    expect(await messagesOf("ticket_cancelled")).toHaveLength(5);
    const rooms = await h.db().selectFrom("chat_messages").select("room_id").where("sender_id", "in", [buyer, seller]).distinct().execute();
    expect(rooms).toHaveLength(1);
    await noLedgerProblems();
  });

  it("refuses the seller's acceptance from the 48-hour deadline on, though the sweeper has not run yet; the buyer may still cancel", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 600);
    const listing = await newListing(seller);
    const late = (await book(buyer, listing, { start: at(72 * HOUR) })).booking;
    const onTime = (await book(buyer, listing, { start: at(72 * HOUR) })).booking;
    expect((await act(seller, onTime.id, "accept", at(48 * HOUR - 1))).booking.status).toBe("accepted");
    await refused(() => act(seller, late.id, "accept", at(48 * HOUR)), 409, "invalid_state");
    const seen = await getBooking({ db: h.db(), userId: seller, bookingId: late.id, now: at(48 * HOUR) });
    expect(seen?.actions.find((a) => a.action === "accept")).toMatchObject({ allowed: false, reason: expect.stringContaining("承認期限") });
    expect((await act(buyer, late.id, "cancel", at(48 * HOUR))).booking).toMatchObject({ status: "cancelled", cancelReason: "buyer" });
    expect(await total(buyer)).toBe(300);
    await noLedgerProblems();
  });

  it("refuses a start from 24 hours after the desired start on, though the sweeper has not cancelled the booking yet", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 600);
    const listing = await newListing(seller);
    const [late, onTime] = [(await book(buyer, listing)).booking, (await book(buyer, listing)).booking];
    await act(seller, late.id, "accept", T0);
    await act(seller, onTime.id, "accept", T0);
    expect((await act(seller, onTime.id, "start", at(START + 24 * HOUR - 1))).booking.status).toBe("in_progress");
    await refused(() => act(seller, late.id, "start", at(START + 24 * HOUR)), 409, "invalid_state");
    // The buyer of a seller who never came may still cancel with a full refund.
    expect((await act(buyer, late.id, "cancel", at(START + 24 * HOUR))).booking).toMatchObject({ status: "cancelled", cancelReason: "no_show" });
    await act(buyer, onTime.id, "complete", at(START + 24 * HOUR));
    expect(await total(buyer)).toBe(300);
    await noLedgerProblems();
  });

  it("books once per idempotency key and refuses what the rules forbid, leaving no booking and no coins moved", async () => {
    const [seller, buyer, other] = (await newUsers(3)) as [string, string, string];
    await buy(buyer, 1000);
    const listing = await newListing(seller);
    const key = randomUUID();
    const before = await counts();
    const first = await book(buyer, listing, { units: 2, key });
    const second = await book(buyer, listing, { units: 2, key, now: at(MIN) });
    expect(second).toEqual({ booking: expect.objectContaining({ id: first.booking.id }), isNew: false });
    await expect(book(buyer, listing, { units: 1, key })).rejects.toMatchObject({ status: 409, code: "idempotency_conflict" });
    await expect(book(buyer, listing, { units: 2, key, start: at(START + MIN) })).rejects.toMatchObject({ status: 409, code: "idempotency_conflict" });
    expect(await counts()).toMatchObject({ ledger: before.ledger + 1, notifications: before.notifications + 1, messages: before.messages + 1 });
    expect(await total(buyer)).toBe(400);

    // The purchase notice: in the pair's DIRECT room, announced to both, the seller notified.
    const purchased = rec.emitted.filter((e) => e.event === "chat:message" && (e.payload as { metadata: { buyerId?: string } }).metadata.buyerId === buyer);
    expect(purchased).toEqual([
      {
        userIds: [buyer, seller],
        event: "chat:message",
        payload: expect.objectContaining({ messageType: "ticket_purchased", metadata: { type: "ticket_purchased", buyerId: buyer, caption: expect.stringContaining("開始希望") } }),
      },
    ]);
    const roomId = (purchased[0]!.payload as { chatRoomId: string }).chatRoomId;
    expect(rec.joined).toContainEqual({ userIds: [buyer, seller], roomId });
    const [notification] = await h.db().selectFrom("notifications").selectAll().where("user_id", "=", seller).execute();
    expect(notification).toMatchObject({ type: "booking", link: "/settings/ticket-management" });

    const refusedPurchase = async (attempt: () => Promise<unknown>, expected: Record<string, unknown>) => {
      const step = await counts();
      const bookings = await h.db().selectFrom("bookings").select("id").where("buyer_id", "=", buyer).execute();
      await expect(attempt()).rejects.toMatchObject(expected);
      expect(await counts()).toEqual(step);
      expect(await h.db().selectFrom("bookings").select("id").where("buyer_id", "=", buyer).execute()).toHaveLength(bookings.length);
      expect(await total(buyer)).toBe(400);
    };
    // Not enough coins: 2 units are 600, the buyer has 400.
    await refusedPurchase(() => book(buyer, listing, { units: 2 }), { status: 422, code: "insufficient_coins" });
    await expect(book(buyer, listing, { units: 2 })).rejects.toBeInstanceOf(CoinError);
    await refusedPurchase(() => book(seller, listing), { status: 422, code: "self_purchase" });
    await refusedPurchase(() => book(buyer, listing, { units: 5 }), { status: 400, code: "units_over_max" });
    await refusedPurchase(() => book(buyer, listing, { start: T0 }), { status: 400, code: "start_in_past" });
    await refusedPurchase(() => book(buyer, listing, { start: at(-MIN) }), { status: 400, code: "start_in_past" });
    await refusedPurchase(() => book(buyer, listing, { start: at(91 * 24 * HOUR) }), { status: 400, code: "start_too_far" });
    await refusedPurchase(() => book(buyer, { id: randomUUID() } as Listing), { status: 404, code: "listing_not_found" });
    await updateListing({ db: h.db(), sellerId: seller, listingId: listing.id, input: { status: "paused" } });
    await refusedPurchase(() => book(buyer, listing), { status: 409, code: "listing_paused" });
    await updateListing({ db: h.db(), sellerId: seller, listingId: listing.id, input: { status: "archived" } });
    await refusedPurchase(() => book(buyer, listing), { status: 404, code: "listing_not_found" });
    // The first key still answers its booking though the listing is gone.
    expect((await book(buyer, listing, { units: 2, key })).booking.id).toBe(first.booking.id);

    const open = await newListing(seller);
    await blockUser({ db: h.db(), blockerId: seller, blockedId: buyer });
    await refusedPurchase(() => book(buyer, open), { status: 403, code: "blocked" });
    // Someone else not blocked may book it.
    await buy(other, 300);
    expect((await book(other, open)).isNew).toBe(true);
    await noLedgerProblems();
  });

  it("lists a person's bookings as buyer and seller, shows them only to their two people, and lists the upcoming ones", async () => {
    const [seller, buyer, stranger] = (await newUsers(3)) as [string, string, string];
    await buy(buyer, 1000);
    const listing = await newListing(seller);
    const first = (await book(buyer, listing, { now: T0 })).booking;
    const second = (await book(buyer, listing, { now: at(MIN), start: at(3 * HOUR) })).booking;
    await act(seller, second.id, "accept", at(MIN));
    const asSeller = await listBookings({ db: h.db(), userId: seller, now: at(MIN) });
    expect(asSeller.map((t) => [t.id, t.isSeller])).toEqual([
      [second.id, true],
      [first.id, true],
    ]);
    expect((await listBookings({ db: h.db(), userId: buyer, now: at(MIN) })).map((t) => t.isSeller)).toEqual([false, false]);
    expect(await listBookings({ db: h.db(), userId: stranger })).toEqual([]);
    expect(await getBooking({ db: h.db(), userId: stranger, bookingId: first.id })).toBeNull();
    const seen = await getBooking({ db: h.db(), userId: seller, bookingId: first.id, now: at(MIN) });
    expect(seen?.actions.find((a) => a.action === "accept")).toMatchObject({ allowed: true, reason: null });
    expect(seen?.buyer).toEqual({ uid: buyer, displayName: expect.any(String), avatar: null, rating: { average: null, count: 0 } });
    expect((await listUpcoming({ db: h.db(), userId: buyer, now: at(MIN) })).map((t) => t.id)).toEqual([second.id]);
    // A seller who also buys: both sides in one list, newest first (each side is read from its own index, then merged).
    await buy(seller, 1000);
    const back = (await book(seller, await newListing(buyer), { now: at(MIN / 2) })).booking;
    expect((await listBookings({ db: h.db(), userId: seller, now: at(MIN) })).map((t) => [t.id, t.isSeller])).toEqual([
      [second.id, true],
      [back.id, false],
      [first.id, true],
    ]);
  });

  it("turns 30 concurrent purchases by a buyer who can afford 5 into exactly 5 bookings", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 5 * 300 + 299);
    const listing = await newListing(seller);
    const before = await counts();
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => book(buyer, listing)));
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(fulfilled).toHaveLength(5);
    expect(rejected).toHaveLength(25);
    for (const r of rejected) expect(r.reason).toMatchObject({ status: 422, code: "insufficient_coins" });
    const bookings = await h.db().selectFrom("bookings").select("id").where("buyer_id", "=", buyer).execute();
    expect(bookings).toHaveLength(5);
    expect(await getBalance(h.db(), buyer)).toEqual({ purchased: 299, earned: 0, totalBalance: 299 });
    expect(await counts()).toMatchObject({ ledger: before.ledger + 5, notifications: before.notifications + 5, messages: before.messages + 5 });
    await noLedgerProblems();

    // And 10 concurrent requests with one key are one booking.
    await buy(buyer, 1);
    const key = randomUUID();
    const same = await Promise.all(Array.from({ length: 10 }, () => book(buyer, listing, { key })));
    expect(new Set(same.map((r) => r.booking.id)).size).toBe(1);
    expect(same.filter((r) => r.isNew)).toHaveLength(1);
    expect(await total(buyer)).toBe(0);
    await noLedgerProblems();
  });
});

describe(`the booking sweeper on ${testEngine}`, () => {
  const h = bookingHelpers(() => database);
  const { rec, newUsers, buy, newListing, act, counts, total, noLedgerProblems, ledgerOf } = h;
  const sweep = (now: Date, jobs = bookingSweepJobs({ feePercent: FEE })) =>
    Promise.all(jobs.map((job) => job.run({ db: h.db(), realtime: rec.realtime, now }))).then((done) => Object.fromEntries(jobs.map((job, i) => [job.name, done[i]])));
  // The sweeper acts on every booking that is due: its tests live 1000 hours after the others, which a first run
  // (just before) settles, so each test sees only its own bookings fall due.
  const SWEEP_T0 = T0.getTime() + 1000 * HOUR;
  const at = (offsetMs: number) => new Date(SWEEP_T0 + offsetMs);
  const book: typeof h.book = (buyerId, listing, options = {}) => h.book(buyerId, listing, { now: at(0), start: at(START), ...options });
  beforeAll(async () => {
    await sweep(at(-HOUR));
    expect(await h.db().selectFrom("bookings").select("id").where("status", "in", ["pending", "accepted", "in_progress"]).execute()).toEqual([]);
    expect(await ledgerProblems(h.db())).toEqual([]);
  });
  const statusOf = async (id: string) => (await h.db().selectFrom("bookings").select(["status", "cancel_reason", "completed_by", "cancelled_by"]).where("id", "=", id).executeTakeFirstOrThrow());

  it("cancels an unaccepted booking at its deadline, an accepted one never started a day after its start, and completes a session a day after its end", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 3000);
    const listing = await newListing(seller);
    const pending = (await book(buyer, listing)).booking;
    const neverStarted = (await book(buyer, listing)).booking;
    await act(seller, neverStarted.id, "accept", at(MIN));
    const playing = (await book(buyer, listing, { units: 2 })).booking;
    await act(seller, playing.id, "accept", at(MIN));
    await act(seller, playing.id, "start", at(START));
    const endsAt = START + 60 * MIN;
    expect(await total(buyer)).toBe(3000 - 1200);

    // Nothing is due yet just before each deadline.
    expect(await sweep(at(START + 24 * HOUR - 1))).toEqual({ "accept deadline": 0, "never started": 0, "auto-complete": 0 });
    // The accepted booking never started: cancelled 24 h after its start.
    let step = await counts();
    expect(await sweep(at(START + 24 * HOUR))).toEqual({ "accept deadline": 0, "never started": 1, "auto-complete": 0 });
    expect(await statusOf(neverStarted.id)).toEqual({ status: "cancelled", cancel_reason: "not_started", cancelled_by: "auto", completed_by: null });
    expect(await ledgerOf(neverStarted.id)).toEqual([
      ["booking", buyer, -300, 0],
      ["refund", buyer, 300, 0],
    ]);
    // Both people are told; the notice goes in their room.
    expect(await counts()).toMatchObject({ ledger: step.ledger + 1, notifications: step.notifications + 2, messages: step.messages + 1 });
    await noLedgerProblems();

    // The session ended at START + 60 min: completed 24 h later, the fee kept.
    expect(await sweep(at(endsAt + 24 * HOUR - 1))).toEqual({ "accept deadline": 0, "never started": 0, "auto-complete": 0 });
    step = await counts();
    expect(await sweep(at(endsAt + 24 * HOUR))).toEqual({ "accept deadline": 0, "never started": 0, "auto-complete": 1 });
    expect(await statusOf(playing.id)).toEqual({ status: "completed", completed_by: "auto", cancel_reason: null, cancelled_by: null });
    expect(await ledgerOf(playing.id)).toEqual([
      ["booking", buyer, -600, 0],
      ["sale", seller, 480, 120],
    ]);
    expect(await counts()).toMatchObject({ ledger: step.ledger + 1, notifications: step.notifications + 2 });
    await noLedgerProblems();

    // The pending one: cancelled 48 h after it was booked.
    expect((await sweep(at(48 * HOUR - 1)))["accept deadline"]).toBe(0);
    expect((await sweep(at(48 * HOUR)))["accept deadline"]).toBe(1);
    expect(await statusOf(pending.id)).toMatchObject({ status: "cancelled", cancel_reason: "accept_deadline", cancelled_by: "auto" });
    expect(await total(buyer)).toBe(3000 - 600);
    expect(await getBalance(h.db(), seller)).toEqual({ purchased: 0, earned: 480, totalBalance: 480 });
    await noLedgerProblems();

    // A second run finds nothing: every deadline acts once.
    step = await counts();
    expect(await sweep(at(100 * HOUR))).toEqual({ "accept deadline": 0, "never started": 0, "auto-complete": 0 });
    expect(await counts()).toEqual(step);
    // What the people did afterwards is refused: the sweeper's outcome stands.
    await expect(act(seller, pending.id, "accept", at(48 * HOUR))).rejects.toMatchObject({ status: 409 });
  });

  it("acts exactly once on each booking when two sweepers run at the same time", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 300 * 12);
    const listing = await newListing(seller, { maxUnits: 1 });
    const base = at(200 * HOUR);
    const pending = await Promise.all(Array.from({ length: 4 }, () => book(buyer, listing, { now: base, start: new Date(base.getTime() + START) })));
    const accepted = await Promise.all(Array.from({ length: 4 }, () => book(buyer, listing, { now: base, start: new Date(base.getTime() + START) })));
    const playing = await Promise.all(Array.from({ length: 4 }, () => book(buyer, listing, { now: base, start: new Date(base.getTime() + START) })));
    for (const { booking } of [...accepted, ...playing]) await act(seller, booking.id, "accept", base);
    for (const { booking } of playing) await act(seller, booking.id, "start", new Date(base.getTime() + START));
    expect(await total(buyer)).toBe(0);

    const step = await counts();
    const later = new Date(base.getTime() + 100 * HOUR);
    const [one, two] = await Promise.all([sweep(later), sweep(later)]);
    for (const name of ["accept deadline", "never started", "auto-complete"]) expect(one[name]! + two[name]!, name).toBe(4);
    const ids = (list: typeof pending) => list.map(({ booking }) => booking.id);
    for (const id of [...ids(pending), ...ids(accepted)]) {
      expect((await ledgerOf(id)).map(([kind]) => kind)).toEqual(["booking", "refund"]);
    }
    for (const id of ids(playing)) expect(await ledgerOf(id)).toEqual([["booking", buyer, -300, 0], ["sale", seller, 240, 60]]);
    // 12 ledger rows, two notifications per booking, one chat notice per cancellation.
    expect(await counts()).toMatchObject({ ledger: step.ledger + 12, notifications: step.notifications + 24, messages: step.messages + 8 });
    expect(await total(buyer)).toBe(300 * 8);
    await noLedgerProblems();
    expect(await sweep(later)).toEqual({ "accept deadline": 0, "never started": 0, "auto-complete": 0 });
  });
  it("never refunds twice when people act while the sweeper runs: cancellations and the accept deadline race, one outcome each", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 300 * 6);
    const listing = await newListing(seller);
    const base = at(400 * HOUR);
    const bookings = await Promise.all(Array.from({ length: 6 }, () => book(buyer, listing, { now: base, start: new Date(base.getTime() + 72 * HOUR) })));
    const deadline = new Date(base.getTime() + 48 * HOUR);
    const step = await counts();
    const outcomes = await Promise.allSettled([
      sweep(deadline),
      ...bookings.map(({ booking }, i) => (i % 3 === 0 ? act(seller, booking.id, "accept", deadline) : act(i % 2 ? buyer : seller, booking.id, "cancel", deadline))),
      sweep(deadline),
    ]);
    // An acceptance at the deadline is refused. A booking someone held locked while the sweepers passed is left for
    // their next run, as the 30-second interval would: then every booking is cancelled and refunded exactly once.
    for (const outcome of outcomes) if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ status: 409 });
    await sweep(deadline);
    for (const { booking } of bookings) {
      expect((await statusOf(booking.id)).status).toBe("cancelled");
      expect((await ledgerOf(booking.id)).map(([kind]) => kind)).toEqual(["booking", "refund"]);
    }
    expect(await counts()).toMatchObject({ ledger: step.ledger + 6, messages: step.messages + 6 });
    expect(await total(buyer)).toBe(1800);
    await noLedgerProblems();
  });

  it("extends once for ten concurrent requests with one key, and serialises concurrent extensions with different keys", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 300 * 5);
    const listing = await newListing(seller);
    const base = at(600 * HOUR);
    const { booking } = await book(buyer, listing, { now: base, start: new Date(base.getTime() + HOUR) });
    await act(seller, booking.id, "accept", base);
    const startedAt = new Date(base.getTime() + HOUR);
    await act(seller, booking.id, "start", startedAt);
    const key = randomUUID();
    const same = await Promise.all(Array.from({ length: 10 }, () => act(buyer, booking.id, "extend", startedAt, { units: 1, idempotencyKey: key })));
    expect(same.filter((r) => r.changed)).toHaveLength(1);
    expect(new Set(same.map((r) => r.booking.totalPrice))).toEqual(new Set([600]));
    // Three more units wanted by six requests: the buyer can pay for three.
    const many = await Promise.allSettled(Array.from({ length: 6 }, () => act(buyer, booking.id, "extend", startedAt, { units: 1, idempotencyKey: randomUUID() })));
    expect(many.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const row = await h.db().selectFrom("bookings").selectAll().where("id", "=", booking.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ units: 5, total_price: 1500, total_minutes: 150 });
    expect(row.ends_at!.getTime() - startedAt.getTime()).toBe(150 * MIN);
    expect(await h.db().selectFrom("booking_extensions").select("units").where("booking_id", "=", booking.id).execute()).toHaveLength(4);
    expect(await total(buyer)).toBe(0);
    await noLedgerProblems();
    // Done, so that the next test's sweeps find only their own bookings.
    await act(buyer, booking.id, "complete", startedAt);
  });

  it("runs the booking jobs from startSweeper with a moved clock, two sweepers (two replicas) acting once between them", async () => {
    const [seller, buyer] = (await newUsers(2)) as [string, string];
    await buy(buyer, 300 * 3);
    const listing = await newListing(seller);
    const base = at(800 * HOUR);
    const [a, b, c] = await Promise.all(Array.from({ length: 3 }, () => book(buyer, listing, { now: base, start: new Date(base.getTime() + 2 * HOUR) })));
    await act(seller, b!.booking.id, "accept", base);
    await act(seller, c!.booking.id, "accept", base);
    await act(seller, c!.booking.id, "start", new Date(base.getTime() + 2 * HOUR));
    let now = base;
    const step = await counts();
    const replicas = [0, 1].map(() =>
      startSweeper({ db: h.db(), realtime: rec.realtime, jobs: bookingSweepJobs({ feePercent: FEE }), clock: () => now, intervalMs: 3_600_000 }),
    );
    try {
      // Their start-up runs find nothing due at `base`.
      await Promise.all(replicas.map((replica) => replica.runOnce()));
      expect(await counts()).toEqual(step);
      now = new Date(base.getTime() + 72 * HOUR);
      const runs = await Promise.all(replicas.map((replica) => replica.runOnce()));
      const sum = (name: string) => runs.reduce((total, run) => total + (run[name] ?? 0), 0);
      expect([sum("accept deadline"), sum("never started"), sum("auto-complete")]).toEqual([1, 1, 1]);
      expect(await statusOf(a!.booking.id)).toMatchObject({ status: "cancelled", cancel_reason: "accept_deadline" });
      expect(await statusOf(b!.booking.id)).toMatchObject({ status: "cancelled", cancel_reason: "not_started" });
      expect(await statusOf(c!.booking.id)).toMatchObject({ status: "completed", completed_by: "auto" });
      expect(await counts()).toMatchObject({ ledger: step.ledger + 3, notifications: step.notifications + 6, messages: step.messages + 2 });
      expect(await total(buyer)).toBe(600);
      expect((await getBalance(h.db(), seller)).earned).toBe(240);
      await noLedgerProblems();
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  });
});
