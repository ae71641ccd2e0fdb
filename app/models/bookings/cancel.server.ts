import type { Realtime } from "~/infra/realtime";
import { messages } from "~/lib/messages";
import { postDirectNotice } from "../chat.server";
import { refundEscrow } from "../coins.server";
import { announce, type Effects } from "./effects.server";
import { stepOf, type Step, type StepResult } from "./step.server";
import { escrowOf, type BookingRow, type Trx } from "./view.server";

const text = messages.bookings;

/**
 * A booking ends before it is played (by either person, a deadline, or the operators): its whole escrow, extensions
 * included, back to the buyer, the `ticket_cancelled` notice in the pair's DIRECT room, and the other person told
 * (both, when nobody in particular cancelled).
 */
export async function cancelStep({ trx, row, actor, cancelReason, buyerName, sellerName, other, both, title, now, effects, notify, update }: Step): StepResult {
  const reason = cancelReason ?? (actor === "auto" ? "accept_deadline" : actor);
  const updated = await update({ status: "cancelled", cancelled_at: now, cancelled_by: actor, cancel_reason: reason });
  await refundEscrow(trx, { reference: escrowOf(row.id) });
  const why = text.cancelledWhy[reason]({ buyer: buyerName, seller: sellerName });
  const body = text.cancelledBody(why, row.total_price);
  effects.posted.push(
    await postDirectNotice(trx, {
      senderId: actor === "buyer" ? row.buyer_id : row.seller_id,
      otherId: actor === "buyer" ? row.seller_id : row.buyer_id,
      messageType: "ticket_cancelled",
      content: text.cancelledNotice(title, why),
      metadata: { type: "ticket_cancelled", buyerId: row.buyer_id, caption: text.refundCaption(row.total_price) },
    }),
  );
  effects.pending = await notify(
    (actor === "auto" ? both : [other]).map((userId) => ({ userId, title: text.cancelledTitle(title), body, mail: "booking_cancelled" as const })),
  );
  return { row: updated, effects };
}

/**
 * Cancels every open booking (pending, accepted, in progress) of a user the operators suspend or ban (ADR 030), in
 * the caller's transaction, which holds the user's row: each booking locked, its whole escrow (extensions included)
 * back to the buyer through the ledger, the chat notice and both people's notifications written as for any
 * cancellation. Answers the cancelled bookings and a function that announces them once committed (when a realtime
 * server is at hand).
 */
export async function cancelOpenBookingsByModeration(trx: Trx, { userId, now }: { userId: string; now: Date }) {
  const open = await trx
    .selectFrom("bookings")
    .selectAll()
    .where((eb) => eb.or([eb("buyer_id", "=", userId), eb("seller_id", "=", userId)]))
    .where("status", "in", ["pending", "accepted", "in_progress"])
    .orderBy("id")
    .forUpdate()
    .execute();
  const cancelled: BookingRow[] = [];
  const all: Effects[] = [];
  for (const row of open) {
    const step = await stepOf(trx, { row, actor: "auto", action: "cancel", now, feePercent: 0, cancelReason: "moderation" });
    const { row: updated, effects } = await cancelStep(step);
    cancelled.push(updated);
    all.push(effects);
  }
  return { cancelled, announce: (realtime: Realtime) => all.forEach((effects) => announce(realtime, effects)) };
}
