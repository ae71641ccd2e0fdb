import { messages } from "~/lib/messages";
import { RealtimeEvent } from "~/lib/realtime-events";
import { formatDateTime } from "~/lib/time";
import { holdInEscrow } from "../coins.server";
import { BookingError } from "./error.server";
import type { Step, StepResult } from "./step.server";
import { escrowOf } from "./view.server";

// The session itself: it starts, its two people check in, the buyer extends it while it is in play.
const text = messages.bookings;

export async function startStep({ row, title, now, effects, notify, update }: Step): StepResult {
  const endsAt = new Date(now.getTime() + row.total_minutes * 60_000);
  // Starting is the seller being there: it counts as their check-in.
  const updated = await update({ status: "in_progress", started_at: now, ends_at: endsAt, seller_checked_in_at: row.seller_checked_in_at ?? now });
  effects.pending = await notify([{ userId: row.buyer_id, title: text.startedTitle(title), body: text.startedBody(formatDateTime(endsAt)) }], "booking_started");
  effects.events.push({ userIds: [row.buyer_id], event: RealtimeEvent.gameStarted, payload: { bookingId: row.id, ticketTitle: row.title } });
  return { row: updated, effects };
}

export async function checkInStep({ row, actor, actorName, other, title, now, effects, notify, update }: Step): StepResult {
  const updated = await update(actor === "buyer" ? { buyer_checked_in_at: now } : { seller_checked_in_at: now });
  effects.pending = await notify([{ userId: other, title: text.checkedInTitle(actorName, title), body: text.checkedInBody }]);
  return { row: updated, effects };
}

/** `units` more bought while in play, their coins into the same escrow; the idempotency key makes it happen once. */
export async function extendStep({ trx, row, units, idempotencyKey, buyerName, both, title, now, effects, notify, update }: Step): StepResult {
  if (!units || !idempotencyKey) throw new BookingError(400, "invalid_input");
  const price = row.price_per_unit * units;
  const minutes = row.minutes_per_unit * units;
  await trx.insertInto("booking_extensions").values({ booking_id: row.id, units, price, minutes, idempotency_key: idempotencyKey, created_at: now }).execute();
  await holdInEscrow(trx, { payerId: row.buyer_id, payeeId: row.seller_id, amount: price, reference: escrowOf(row.id) });
  const updated = await update({
    units: row.units + units,
    total_price: row.total_price + price,
    total_minutes: row.total_minutes + minutes,
    ends_at: new Date(row.ends_at!.getTime() + minutes * 60_000),
  });
  const message = text.extendedMessage(title, units, minutes, formatDateTime(updated.ends_at!));
  effects.pending = await notify([{ userId: row.seller_id, title: text.extendedTitle(title), body: text.extendedBody(buyerName, units, minutes, price) }], "booking_extended");
  effects.events.push({ userIds: both, event: RealtimeEvent.gameExtended, payload: { bookingId: row.id, message } });
  return { row: updated, effects };
}
