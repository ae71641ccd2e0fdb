import { z } from "zod";
import { REPORT_NOTE_MAX, REPORT_REASONS, REPORT_TARGET_TYPES } from "../constants/moderation";
import { messages } from "../messages";
import { multiLineText, redirectToField } from "./fields";

/**
 * A report (通報, docs/product.md#trust-and-safety): POST /api/reports, the /report page's form and the report dialog share it. The target's
 * id is only a short line here; whether it names something the reporter may see (a uuid, a message number, theirs to
 * see) is the model's question, answered 404 like any other invisible thing.
 */
const targetType = z.enum(REPORT_TARGET_TYPES, { errorMap: () => ({ message: messages.validation.invalidChoice }) });
const targetId = z
  .string({ required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput })
  .trim()
  .min(1, messages.validation.required)
  .max(200, messages.validation.checkInput);

export const reportSchema = z.object({
  targetType,
  targetId,
  reason: z.enum(REPORT_REASONS, { errorMap: () => ({ message: messages.validation.selectRequired }) }),
  note: multiLineText(REPORT_NOTE_MAX, { required: false }).optional().default(""),
});
export type ReportInput = z.infer<typeof reportSchema>;

/** The page's form: the same fields, and where to go back to (the dialog sends none and gets the result instead). */
export const reportFormSchema = reportSchema.extend({ redirectTo: redirectToField });

/** GET /report?type=…&id=…[&redirectTo=…]: what the page offers to report. */
export const reportQuerySchema = z.object({ type: targetType, id: targetId, redirectTo: redirectToField });
