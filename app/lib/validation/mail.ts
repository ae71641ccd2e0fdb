import { z } from "zod";
import { MAIL_KINDS } from "../constants/mail";
import { messages } from "../messages";

/**
 * `/settings/notifications`: the kinds of mail left checked (one checkbox `kinds` per kind). A form sends a
 * checked box once, several as repeats and none when every box is clear, so one value or none is read as a list.
 */
export const mailPreferencesSchema = z.object({
  kinds: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.enum(MAIL_KINDS, { errorMap: () => ({ message: messages.validation.checkInput }) }), { invalid_type_error: messages.validation.checkInput }),
  ),
});
export type MailPreferencesInput = z.infer<typeof mailPreferencesSchema>;
