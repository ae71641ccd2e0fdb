import type { Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { checkBookingAction, type BookingAction, type BookingRole } from "~/lib/booking-rules";
import { applyStep } from "./apply.server";
import { announce } from "./effects.server";
import { BookingError } from "./error.server";
import { bookingViewOf, factsOf, type Booking } from "./view.server";

/**
 * Does `action` to a booking on behalf of one of its two people (POST /api/tickets/{id}/{action} and the forms
 * of the pages). A stranger gets 404, the other party where the action is not theirs 403, a booking in a state
 * that does not allow it 409; what is already done answers the booking unchanged. An extension buys `units` more
 * while in progress and needs an idempotency key, so a repeated request buys them once. One transaction locks the
 * booking row first and the wallets after it (always in that order), checks, writes and records what to announce.
 */
export async function actOnBooking({
  db,
  realtime,
  feePercent,
  userId,
  bookingId,
  action,
  units,
  idempotencyKey,
  now = new Date(),
}: {
  db: Database;
  realtime: Realtime;
  feePercent: number;
  userId: string;
  bookingId: string;
  action: BookingAction;
  units?: number;
  idempotencyKey?: string;
  now?: Date;
}): Promise<{ booking: Booking; changed: boolean }> {
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("bookings").selectAll().where("id", "=", bookingId).forUpdate().executeTakeFirst();
    if (!row || (row.buyer_id !== userId && row.seller_id !== userId)) throw new BookingError(404, "booking_not_found");
    const role: BookingRole = row.seller_id === userId ? "seller" : "buyer";
    if (action === "extend" && role === "buyer" && idempotencyKey) {
      const seen = await trx
        .selectFrom("booking_extensions")
        .select(["units"])
        .where("booking_id", "=", row.id)
        .where("idempotency_key", "=", idempotencyKey)
        .executeTakeFirst();
      if (seen) {
        if (seen.units !== units) throw new BookingError(409, "idempotency_conflict");
        return { row, effects: null };
      }
    }
    const verdict = checkBookingAction(factsOf(row), role, action, now.getTime());
    if (verdict.kind === "denied") throw new BookingError(verdict.status, verdict.code, verdict.reason);
    if (verdict.kind === "done") return { row, effects: null };
    return applyStep(trx, { row, actor: role, action, now, feePercent, units, idempotencyKey, cancelReason: verdict.cancelReason });
  });
  if (outcome.effects) announce(realtime, outcome.effects);
  return { booking: await bookingViewOf(db, outcome.row, userId, now), changed: outcome.effects !== null };
}
