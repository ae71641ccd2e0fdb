import { z } from "zod";
import { BOOKING_NOTE_MAX } from "../constants";
import { messages } from "../messages";
import { parseTime } from "../time.server";
import { idempotencyKeySchema, multiLineText } from "./fields";
import { unitsField } from "./listing";

/**
 * The booking's schemas. Reading a start time needs luxon (~/lib/time.server), which only the server loads: only
 * server code imports this module.
 */

/**
 * A desired start time as the API sends it (docs/product.md#data): seconds below 1e12, else milliseconds, or a date string; a
 * form's `datetime-local` value has no zone and is read in Asia/Tokyo. Whether it is in the future is the model's
 * rule (it knows the clock).
 */
export const desiredStartTimeSchema = z
  .union([z.number(), z.string().max(64)], {
    required_error: messages.bookings.startTimeRequired,
    invalid_type_error: messages.validation.checkInput,
  })
  .transform((value, context) => {
    const time = typeof value === "string" && value.trim() === "" ? null : parseTime(value);
    if (!time) {
      context.addIssue({ code: z.ZodIssueCode.custom, message: messages.bookings.startTimeRequired });
      return z.NEVER;
    }
    return time;
  });

/** POST /api/listings/{id}/purchase and the booking form. */
export const purchaseSchema = z.object({
  units: unitsField,
  desiredStartTime: desiredStartTimeSchema,
  note: multiLineText(BOOKING_NOTE_MAX, { required: false }).optional().default(""),
});
export type PurchaseInput = z.infer<typeof purchaseSchema>;

/** The booking confirmation form: what was chosen, and the key the page was rendered with. */
export const purchaseFormSchema = purchaseSchema.extend({ idempotencyKey: idempotencyKeySchema });

