import { messages } from "~/lib/messages";
import { reviewPath } from "~/lib/paths";
import { releaseEscrow } from "../coins.server";
import type { Step, StepResult } from "./step.server";
import { escrowOf } from "./view.server";

const text = messages.bookings;

/** The session is over: the escrow goes to the seller less the fee, and both people are asked for a review. */
export async function completeStep({ trx, row, actor, feePercent, buyerName, sellerName, title, now, effects, notify, update }: Step): StepResult {
  const updated = await update({ status: "completed", completed_at: now, completed_by: actor });
  const paid = await releaseEscrow(trx, { reference: escrowOf(row.id), feePercent });
  // The review prompt: both sides are asked, the one who completed it on the page they are on.
  const sellerBody = text.completedSellerBody(paid.credited, paid.fee, buyerName);
  const buyerBody = text.completedBuyerBody(sellerName);
  const link = reviewPath(row.id);
  const inputs = [
    ...(actor !== "seller" ? [{ userId: row.seller_id, title: text.completedTitle(title), body: sellerBody, link }] : []),
    ...(actor !== "buyer" ? [{ userId: row.buyer_id, title: text.completedTitle(title), body: buyerBody, link }] : []),
  ];
  effects.pending = await notify(inputs, "booking_completed");
  return { row: updated, effects };
}
