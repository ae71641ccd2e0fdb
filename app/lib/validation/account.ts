import { z } from "zod";
import { PASSWORD_INPUT_MAX, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../constants";
import { messages } from "../messages";
import { emailText } from "./fields";

/** The forms of an account's life beyond sign-in (docs/product.md#accounts): recovery, a new password, a new address. */

const typeError = { required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput };

const newPassword = z
  .string(typeError)
  .min(PASSWORD_MIN_LENGTH, messages.auth.passwordTooShort(PASSWORD_MIN_LENGTH))
  .max(PASSWORD_MAX_LENGTH, messages.validation.maxLength(PASSWORD_MAX_LENGTH));

const typedPassword = z.string(typeError).min(1, messages.validation.required).max(PASSWORD_INPUT_MAX, messages.validation.maxLength(PASSWORD_INPUT_MAX));

const sameTwice = <T extends { password: string; confirmPassword: string }>(value: T, ctx: z.RefinementCtx) => {
  if (value.password !== value.confirmPassword) ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: messages.auth.passwordsDiffer });
};

/** /forgot-password: where to send the link. */
export const forgotPasswordSchema = z.object({ email: emailText() });

/** /reset-password, after a recovery link: the new password, twice. */
export const resetPasswordSchema = z.object({ password: newPassword, confirmPassword: typedPassword }).superRefine(sameTwice);

/** /settings/password: the current password again, then the new one twice. */
export const changePasswordSchema = z
  .object({ currentPassword: typedPassword, password: newPassword, confirmPassword: typedPassword })
  .superRefine(sameTwice);

/** /settings/email: the new address. */
export const changeEmailSchema = z.object({ email: emailText() });

/** /auth/confirm: a mailed link's token and what it is for. */
export const confirmLinkSchema = z.object({
  token_hash: z.string(typeError).min(1, messages.auth.linkInvalid).max(256, messages.auth.linkInvalid),
  type: z.enum(["recovery", "signup", "email_change"], { errorMap: () => ({ message: messages.auth.linkInvalid }) }),
});
export type ConfirmLinkType = z.infer<typeof confirmLinkSchema>["type"];

/**
 * The leaving form (退会, /settings/account): the current password, and the box that says the forfeited coins and
 * what is deleted were read.
 */
export const leaveAccountSchema = z.object({
  password: typedPassword,
  confirm: z.literal("on", { errorMap: () => ({ message: messages.account.confirmRequired }) }),
});
