import { z } from "zod";
import { PASSWORD_INPUT_MAX, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../constants";
import { messages } from "../messages";
import { emailText, redirectToField } from "./fields";

/** Signing in, signing up and signing out; the rest of an account's life is in ./account. */

export const loginSchema = z.object({
  email: emailText(),
  // Passwords are never stored as text (only their scrypt hash, of the NFKC form), so any characters will do.
  password: z
    .string({ required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput })
    .min(1, messages.validation.required)
    .max(PASSWORD_INPUT_MAX, messages.validation.maxLength(PASSWORD_INPUT_MAX)),
  redirectTo: redirectToField,
});

export const signupSchema = loginSchema.extend({
  password: z
    .string({ required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput })
    .min(PASSWORD_MIN_LENGTH, messages.auth.passwordTooShort(PASSWORD_MIN_LENGTH))
    .max(PASSWORD_MAX_LENGTH, messages.validation.maxLength(PASSWORD_MAX_LENGTH)),
});

/** Which sessions a sign-out ends: this one (the default) or every device's (supabase-js `signOut({ scope })`). */
export const signOutScopeSchema = z.enum(["local", "global"]).default("local");
