import type { Transaction } from "kysely";
import { DateTime } from "luxon";
import type { DB } from "../../../app/infra/db/tables";
import { ACCEPT_DEADLINE_MS, COIN_PACKAGES, DEFAULT_PLATFORM_FEE_PERCENT, DISPLAY_TIME_ZONE } from "../../../app/lib/constants";
import { creditPurchase, holdInEscrow, refundEscrow, releaseEscrow, transfer } from "../../../app/models/coins.server";
import { DEMO_ACCOUNTS, DEMO_LISTINGS, DEMO_SELLERS } from "./demo-data";

/**
 * Listings in several games, and bookings between the demo accounts in every state, so the listing registration page,
 * booking management and the schedule show something on a fresh start. The coins move through the ledger.
 */
export async function seedDemoListingsAndBookings(trx: Transaction<DB>, games: Map<string, number>) {
  const [minato, sora, haru] = DEMO_ACCOUNTS;
  const listings = await trx
    .insertInto("listings")
    .values(
      DEMO_LISTINGS.map(([seller, slug, title, description, price, minutes, maxUnits]) => ({
        seller_id: DEMO_ACCOUNTS[seller].id,
        game_id: games.get(slug)!,
        title,
        description,
        price_per_unit: price,
        minutes_per_unit: minutes,
        max_units: maxUnits,
      })),
    )
    .returning(["id", "seller_id", "title", "price_per_unit", "minutes_per_unit"])
    .execute();
  const now = Date.now();
  const hour = 3600_000;
  const at = (offset: number) => new Date(Math.floor((now + offset) / (15 * 60_000)) * 15 * 60_000);
  // An evening in Japan, `days` from today: when people actually play.
  const evening = (days: number, hourOfDay: number) =>
    DateTime.fromMillis(now, { zone: DISPLAY_TIME_ZONE }).plus({ days }).set({ hour: hourOfDay, minute: 0, second: 0, millisecond: 0 }).toJSDate();
  const book = async (listingIndex: number, buyer: { id: string }, units: number, createdAgo: number, desiredStart: Date) => {
    const listing = listings[listingIndex]!;
    const created = new Date(now - createdAgo);
    const booking = await trx
      .insertInto("bookings")
      .values({
        listing_id: listing.id,
        buyer_id: buyer.id,
        seller_id: listing.seller_id,
        title: listing.title,
        price_per_unit: listing.price_per_unit,
        minutes_per_unit: listing.minutes_per_unit,
        units,
        total_price: listing.price_per_unit * units,
        total_minutes: listing.minutes_per_unit * units,
        desired_start_at: desiredStart,
        accept_deadline_at: new Date(created.getTime() + ACCEPT_DEADLINE_MS),
        idempotency_key: `demo-seed-${listingIndex}-${buyer.id}`,
        created_at: created,
        updated_at: created,
      })
      .returning(["id", "total_minutes"])
      .executeTakeFirstOrThrow();
    await holdInEscrow(trx, { payerId: buyer.id, payeeId: listing.seller_id, amount: listing.price_per_unit * units, reference: `booking:${booking.id}` });
    return booking;
  };
  // Waiting for Minato to accept.
  await book(0, sora, 1, 2 * hour, evening(2, 21));
  // Accepted: on both schedules tomorrow.
  const accepted = await book(1, haru, 1, 20 * hour, evening(1, 22));
  await trx.updateTable("bookings").set({ status: "accepted", accepted_at: new Date(now - 19 * hour) }).where("id", "=", accepted.id).execute();
  // In progress right now: Haru coaching Sora.
  const playing = await book(4, sora, 2, 26 * hour, at(-10 * 60_000));
  await trx
    .updateTable("bookings")
    .set({
      status: "in_progress",
      accepted_at: new Date(now - 25 * hour),
      started_at: at(-10 * 60_000),
      ends_at: new Date(at(-10 * 60_000).getTime() + playing.total_minutes * 60_000),
      seller_checked_in_at: at(-10 * 60_000),
      buyer_checked_in_at: at(-8 * 60_000),
    })
    .where("id", "=", playing.id)
    .execute();
  // Completed two days ago: Sora was paid, less the fee.
  const done = await book(2, minato, 1, 72 * hour, at(-50 * hour));
  await trx
    .updateTable("bookings")
    .set({
      status: "completed",
      accepted_at: new Date(now - 70 * hour),
      started_at: at(-50 * hour),
      ends_at: new Date(at(-50 * hour).getTime() + done.total_minutes * 60_000),
      completed_at: new Date(at(-50 * hour).getTime() + done.total_minutes * 60_000),
      completed_by: "buyer",
    })
    .where("id", "=", done.id)
    .execute();
  await releaseEscrow(trx, { reference: `booking:${done.id}`, feePercent: DEFAULT_PLATFORM_FEE_PERCENT });
  // Both reviewed it; Minato tipped 100 coins.
  const reviews = await trx
    .insertInto("reviews")
    .values([
      { booking_id: done.id, reviewer_id: minato.id, reviewee_id: sora.id, rating: 5, comment: "立ち回りを丁寧に教えてもらえました。また遊びたいです！", tip_amount: 100 },
      { booking_id: done.id, reviewer_id: sora.id, reviewee_id: minato.id, rating: 4, comment: "時間どおりに来てくれて楽しかったです。", tip_amount: 0 },
    ])
    .returning(["id", "tip_amount"])
    .execute();
  await transfer(trx, { fromId: minato.id, toId: sora.id, amount: 100, purpose: "tip", reference: `review:${reviews[0]!.id}`, feePercent: DEFAULT_PLATFORM_FEE_PERCENT });
  // Cancelled by the seller before it started: refunded.
  const cancelled = await book(3, haru, 1, 40 * hour, evening(3, 20));
  await trx
    .updateTable("bookings")
    .set({ status: "cancelled", cancelled_at: new Date(now - 30 * hour), cancelled_by: "seller", cancel_reason: "seller" })
    .where("id", "=", cancelled.id)
    .execute();
  await refundEscrow(trx, { reference: `booking:${cancelled.id}` });
}

/**
 * More sellers, so explore, game pages and home have people in every game on a fresh start: each with a
 * profile, games and one or two listings (none is shown online: only real presence does that). Each bought coins once and booked the next seller's first listing, completed and reviewed, so ratings
 * come from real bookings whose coins moved through the ledger.
 */
export async function seedDemoSellers(trx: Transaction<DB>, games: Map<string, number>, passwordHash: string) {
  const now = Date.now();
  const hour = 3600_000;
  const sellers = DEMO_SELLERS.map((seller, index) => ({ ...seller, id: `00000000-0000-4000-8000-${String(101 + index).padStart(12, "0")}` }));
  const firstListings: Array<{ id: string; price: number; minutes: number; title: string }> = [];
  for (const [index, seller] of sellers.entries()) {
    const inserted = await trx.insertInto("auth_users").values({ id: seller.id, email: seller.email, password_hash: passwordHash, email_confirmed_at: new Date() }).onConflict((oc) => oc.doNothing()).returning("id").executeTakeFirst();
    if (!inserted) return; // seeded before
    await trx
      .insertInto("users")
      .values({ id: seller.id, display_name: seller.displayName, bio: seller.bio, email: seller.email })
      .execute();
    await trx.insertInto("user_games").values(seller.listings.map(([slug, , , , , rank]) => ({ user_id: seller.id, game_id: games.get(slug)!, rank }))).onConflict((oc) => oc.doNothing()).execute();
    const listings = await trx
      .insertInto("listings")
      .values(
        seller.listings.map(([slug, title, price, minutes, maxUnits], listingIndex) => ({
          seller_id: seller.id,
          game_id: games.get(slug)!,
          title,
          description: seller.bio,
          price_per_unit: price,
          minutes_per_unit: minutes,
          max_units: maxUnits,
          created_at: new Date(now - (index * 7 + listingIndex + 1) * hour),
        })),
      )
      .returning(["id", "price_per_unit", "minutes_per_unit", "title"])
      .execute();
    firstListings.push({ id: listings[0]!.id, price: listings[0]!.price_per_unit, minutes: listings[0]!.minutes_per_unit, title: listings[0]!.title });
    const pack = COIN_PACKAGES[2]!; // 3,000 coins: enough for any first listing above
    const order = await trx
      .insertInto("coin_orders")
      .values({ user_id: seller.id, package_id: pack.id, coins: pack.coins, price_jpy: pack.price, provider: "test", status: "paid", idempotency_key: "demo-seed", settled_at: new Date(now - 10 * 24 * hour) })
      .returning("id")
      .executeTakeFirstOrThrow();
    await creditPurchase(trx, { userId: seller.id, coins: pack.coins, reference: `coin_order:${order.id}` });
  }
  // Each seller (buyer) booked the next one's first listing a few days ago; completed, reviewed with the listed stars.
  for (const [index, buyer] of sellers.entries()) {
    const sellerIndex = (index + 1) % sellers.length;
    const listing = firstListings[sellerIndex]!;
    const seller = sellers[sellerIndex]!;
    const startedAt = new Date(Math.floor((now - (index + 2) * 24 * hour) / hour) * hour);
    const endsAt = new Date(startedAt.getTime() + listing.minutes * 60_000);
    const created = new Date(startedAt.getTime() - 24 * hour);
    const booking = await trx
      .insertInto("bookings")
      .values({
        listing_id: listing.id,
        buyer_id: buyer.id,
        seller_id: seller.id,
        title: listing.title,
        price_per_unit: listing.price,
        minutes_per_unit: listing.minutes,
        units: 1,
        total_price: listing.price,
        total_minutes: listing.minutes,
        desired_start_at: startedAt,
        accept_deadline_at: new Date(created.getTime() + ACCEPT_DEADLINE_MS),
        idempotency_key: `demo-seed-seller-${index}`,
        created_at: created,
        updated_at: endsAt,
        status: "completed",
        accepted_at: new Date(created.getTime() + hour),
        started_at: startedAt,
        ends_at: endsAt,
        completed_at: endsAt,
        completed_by: "buyer",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await holdInEscrow(trx, { payerId: buyer.id, payeeId: seller.id, amount: listing.price, reference: `booking:${booking.id}` });
    await releaseEscrow(trx, { reference: `booking:${booking.id}`, feePercent: DEFAULT_PLATFORM_FEE_PERCENT });
    await trx
      .insertInto("reviews")
      .values({ booking_id: booking.id, reviewer_id: buyer.id, reviewee_id: seller.id, rating: seller.stars, comment: seller.review, created_at: endsAt })
      .execute();
  }
}
