import type { Database, ListingStatus } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import type { PurchaseInput } from "~/lib/validation/booking";
import { ACCEPT_DEADLINE_MS, BOOKING_HORIZON_MS } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { formatDateTime } from "~/lib/time";
import { postDirectNotice } from "../chat.server";
import { holdInEscrow } from "../coins.server";
import { recordNotifications } from "../notification.server";
import { lockPresentUsers } from "../user.server";
import { announce, managementLink, noEffects } from "./effects.server";
import { BookingError } from "./error.server";
import { bookingViewOf, escrowOf, type Booking, type BookingRow } from "./view.server";

const text = messages.bookings;

/**
 * Books units of a listing (POST /api/listings/{id}/purchase and the booking form): the booking and its escrow in
 * one transaction, with the `ticket_purchased` notice in the pair's DIRECT room and the seller's notification.
 * The idempotency key makes it happen once: the same key answers the first booking; the same key with another
 * listing, units or start time is a 409.
 */
export async function purchaseListing({
  db,
  realtime,
  buyerId,
  listingId,
  input,
  idempotencyKey,
  now = new Date(),
}: {
  db: Database;
  realtime: Realtime;
  buyerId: string;
  listingId: string;
  input: PurchaseInput;
  idempotencyKey: string;
  now?: Date;
}): Promise<{ booking: Booking; isNew: boolean }> {
  const existing = await findByKey(db, buyerId, idempotencyKey);
  if (existing) return { booking: await sameRequest(db, existing, { listingId, input }, buyerId, now), isNew: false };

  const listing = await db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.seller_id")
    .select(["l.id", "l.seller_id", "l.title", "l.price_per_unit", "l.minutes_per_unit", "l.max_units", "l.status", "l.hidden_at", "u.display_name as seller_name"])
    .where("l.id", "=", listingId)
    .executeTakeFirst();
  if (!listing) throw new BookingError(404, "listing_not_found");
  const problem = purchaseProblem({
    listing: { sellerId: listing.seller_id, status: listing.status, maxUnits: listing.max_units, hidden: listing.hidden_at !== null },
    buyerId,
    input,
    now,
  });
  if (problem) throw problem;
  const buyer = await db.selectFrom("users").select("display_name").where("id", "=", buyerId).executeTakeFirst();
  if (!buyer) throw new BookingError(404, "profile_not_found");
  const blocked = await db
    .selectFrom("user_blocks")
    .select("blocker_id")
    .where("blocker_id", "=", listing.seller_id)
    .where("blocked_id", "=", buyerId)
    .executeTakeFirst();
  if (blocked) throw new BookingError(403, "blocked");

  const totalPrice = listing.price_per_unit * input.units;
  const totalMinutes = listing.minutes_per_unit * input.units;
  const outcome = await db.transaction().execute(async (trx) => {
    // Both people's rows are held while the booking is made: an account leaving (退会) at the same moment either
    // sees this booking and refuses, or has left and this booking is refused.
    const present = await lockPresentUsers(trx, [buyerId, listing.seller_id]);
    if (!present.has(listing.seller_id)) throw new BookingError(404, "listing_not_found");
    if (!present.has(buyerId)) throw new BookingError(404, "profile_not_found");
    // The listing again, held: hidden by the operators (ADR 030) or paused since it was read above, it is refused;
    // a hide or pause at the same moment waits for this booking, which then existed before it.
    const still = await trx.selectFrom("listings").select(["status", "hidden_at"]).where("id", "=", listing.id).forShare().executeTakeFirstOrThrow();
    if (still.hidden_at !== null || still.status === "archived") throw new BookingError(404, "listing_not_found");
    if (still.status === "paused") throw new BookingError(409, "listing_paused");
    const booking = await trx
      .insertInto("bookings")
      .values({
        listing_id: listing.id,
        buyer_id: buyerId,
        seller_id: listing.seller_id,
        title: listing.title,
        price_per_unit: listing.price_per_unit,
        minutes_per_unit: listing.minutes_per_unit,
        units: input.units,
        total_price: totalPrice,
        total_minutes: totalMinutes,
        desired_start_at: input.desiredStartTime,
        note: input.note,
        accept_deadline_at: new Date(now.getTime() + ACCEPT_DEADLINE_MS),
        idempotency_key: idempotencyKey,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(["buyer_id", "idempotency_key"]).doNothing())
      .returningAll()
      .executeTakeFirst();
    // The same key raced in from another request and won: answer its booking below.
    if (!booking) return null;
    await holdInEscrow(trx, { payerId: buyerId, payeeId: listing.seller_id, amount: totalPrice, reference: escrowOf(booking.id) });
    const effects = noEffects();
    effects.posted.push(
      await postDirectNotice(trx, {
        senderId: buyerId,
        otherId: listing.seller_id,
        messageType: "ticket_purchased",
        content: text.purchasedNotice(listing.title, input.units, totalMinutes, totalPrice),
        metadata: { type: "ticket_purchased", buyerId, caption: text.startCaption(formatDateTime(input.desiredStartTime)) },
      }),
    );
    effects.pending = await recordNotifications(trx, [
      {
        userId: listing.seller_id,
        type: "booking",
        title: text.purchasedTitle(listing.title),
        body: text.purchasedBody(buyer.display_name, input.units, totalMinutes, formatDateTime(input.desiredStartTime)),
        link: managementLink,
        mail: "booking_requested",
      },
    ]);
    return { booking, effects };
  });
  if (!outcome) {
    const raced = await findByKey(db, buyerId, idempotencyKey);
    return { booking: await sameRequest(db, raced!, { listingId, input }, buyerId, now), isNew: false };
  }
  announce(realtime, outcome.effects);
  return { booking: await bookingViewOf(db, outcome.booking, buyerId, now), isNew: true };
}

/**
 * What stops this buyer from booking this listing now, before anything is written (the confirmation page says it
 * before the buyer pays; the purchase refuses with it): null when nothing does.
 */
export function purchaseProblem({
  listing,
  buyerId,
  input,
  now,
}: {
  listing: { sellerId: string; status: ListingStatus; maxUnits: number; hidden: boolean };
  buyerId: string;
  input: Pick<PurchaseInput, "units" | "desiredStartTime">;
  now: Date;
}): BookingError | null {
  // Hidden by the operators: not found, as for everyone but its seller.
  if (listing.status === "archived" || (listing.hidden && listing.sellerId !== buyerId)) return new BookingError(404, "listing_not_found");
  if (listing.sellerId === buyerId) return new BookingError(422, "self_purchase");
  if (listing.status === "paused") return new BookingError(409, "listing_paused");
  if (input.units > listing.maxUnits) return new BookingError(400, "units_over_max", messages.bookings.unitsOverMax(listing.maxUnits));
  if (input.desiredStartTime.getTime() <= now.getTime()) return new BookingError(400, "start_in_past");
  if (input.desiredStartTime.getTime() > now.getTime() + BOOKING_HORIZON_MS) {
    return new BookingError(400, "start_too_far", messages.bookings.startTimeTooFar(BOOKING_HORIZON_MS / 86_400_000));
  }
  return null;
}

function findByKey(db: Database, buyerId: string, idempotencyKey: string) {
  return db.selectFrom("bookings").selectAll().where("buyer_id", "=", buyerId).where("idempotency_key", "=", idempotencyKey).executeTakeFirst();
}

/** A key seen before: the first booking when the request is the same one, else a 409. */
async function sameRequest(db: Database, row: BookingRow, request: { listingId: string; input: PurchaseInput }, buyerId: string, now: Date) {
  const same =
    row.listing_id === request.listingId && row.units === request.input.units && row.desired_start_at.getTime() === request.input.desiredStartTime.getTime();
  if (!same) throw new BookingError(409, "idempotency_conflict");
  return bookingViewOf(db, row, buyerId, now);
}
