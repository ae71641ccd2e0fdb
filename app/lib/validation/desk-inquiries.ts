import { z } from "zod";
import { INQUIRY_REPLY_MAX } from "../constants";
import { messages } from "../messages";
import { multiLineText, pageQuerySchema, uuidParam } from "./fields";

/**
 * The inquiries desk's forms (/admin/inquiries, ADR 072). A reply is mailed to the sender; its form's key, new on
 * every visit, makes a second post of the same form the first. Close and reopen are a button each.
 */
export const inquiryReplySchema = z.object({
  intent: z.literal("reply"),
  body: multiLineText(INQUIRY_REPLY_MAX),
  key: uuidParam,
});
export const inquiryStatusSchema = z.object({ intent: z.enum(["close", "reopen"], { errorMap: () => ({ message: messages.validation.checkInput }) }) });

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
