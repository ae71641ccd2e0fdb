import { z } from "zod";
import { PAYOUT_REASON_MAX } from "../constants";
import { messages } from "../messages";
import { multiLineText, uuidParam } from "./fields";

/**
 * The payouts desk's forms (/admin/payouts, ADR 072): show one request's bank details (a reveal, logged), or pay or
 * reject it with a reason; `intent` says which button was pressed.
 */
export const payoutRevealSchema = z.object({ intent: z.literal("reveal"), payoutId: uuidParam });
export const payoutDecisionSchema = z.object({
  intent: z.enum(["pay", "reject"], { errorMap: () => ({ message: messages.validation.checkInput }) }),
  payoutId: uuidParam,
  reason: multiLineText(PAYOUT_REASON_MAX),
});
