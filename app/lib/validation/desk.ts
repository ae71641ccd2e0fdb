import { z } from "zod";
import { INQUIRY_REPLY_MAX, PAYOUT_REASON_MAX } from "../constants";
import { messages } from "../messages";
import { multiLineText, pageQuerySchema, uuidParam } from "./fields";

/**
 * The operators' desk's money and inquiries forms (ADR 072). Each names what it acts on in the form (the page's id
 * for an inquiry), with an `intent` saying which button was pressed.
 */

const intent = <Values extends [string, ...string[]]>(values: Values) =>
  z.enum(values, { errorMap: () => ({ message: messages.validation.checkInput }) });

/** /admin/payouts: show one request's bank details (a reveal, logged), or pay or reject it with a reason. */
export const payoutRevealSchema = z.object({ intent: z.literal("reveal"), payoutId: uuidParam });
export const payoutDecisionSchema = z.object({
  intent: intent(["pay", "reject"]),
  payoutId: uuidParam,
  reason: multiLineText(PAYOUT_REASON_MAX),
});
export const payoutDeskSchema = z.discriminatedUnion("intent", [payoutRevealSchema, payoutDecisionSchema.extend({ intent: z.literal("pay") }), payoutDecisionSchema.extend({ intent: z.literal("reject") })], {
  errorMap: () => ({ message: messages.validation.checkInput }),
});
export type PayoutDeskInput = z.infer<typeof payoutDeskSchema>;

/** /admin/inquiries/{id}: a reply mailed to the sender (its form's key makes a second post of it the first), or close / reopen. */
export const inquiryReplySchema = z.object({
  intent: z.literal("reply"),
  body: multiLineText(INQUIRY_REPLY_MAX),
  key: uuidParam,
});
export const inquiryStatusSchema = z.object({ intent: intent(["close", "reopen"]) });
export type InquiryReplyInput = z.infer<typeof inquiryReplySchema>;

/** The queue's filter and page (GET /admin/inquiries?status=…&page=…); an empty status is all of them. */
export const inquiryQuerySchema = pageQuerySchema.extend({
  status: z.preprocess((value) => (value === "" ? undefined : value), z.enum(["open", "answered", "closed"]).optional()),
});

/** /admin/inquiries/{id}: a positive integer the column can hold; anything else is the 404 of an unknown path. */
export const inquiryParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/)
    .transform(Number)
    .pipe(z.number().max(2 ** 31 - 1)),
});
