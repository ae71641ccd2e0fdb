import { messages } from "~/lib/messages";
import { formatDateTime } from "~/lib/time";
import type { Step, StepResult } from "./step.server";

/** The seller takes a pending booking: the buyer hears when it starts. */
export async function acceptStep({ row, title, now, effects, notify, update }: Step): StepResult {
  const updated = await update({ status: "accepted", accepted_at: now });
  effects.pending = await notify([
    {
      userId: row.buyer_id,
      title: messages.bookings.acceptedTitle(title),
      body: messages.bookings.acceptedBody(formatDateTime(row.desired_start_at)),
      mail: "booking_accepted",
    },
  ]);
  return { row: updated, effects };
}
