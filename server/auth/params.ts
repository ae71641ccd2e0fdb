import { z } from "zod";
import { EMAIL_MAX, PASSWORD_INPUT_MAX, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_METADATA_MAX_BYTES } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { isStorableJson, isStorableText } from "../../app/lib/validation/fields";
import { ErrorCode } from "./errors";
import { refusal } from "./helpers";

/**
 * The fields the embedded auth server's request bodies share, as zod schemas that refuse in GoTrue's shape
 * (`refusal`). GoTrue reads what supabase-js sends leniently: a field of the wrong type is as if it were absent, so
 * these take `unknown` and read it, and refuse only what the server cannot take. Each endpoint's own schema is in
 * its handler's file, as GoTrue's `SignupParams` is in signup.go (ADR 062).
 */

/** A string as sent, or "" for anything else. */
export const textParam = z.unknown().transform((value) => (typeof value === "string" ? value : ""));

/** A string as sent, or undefined for anything else (a field not to act on). */
export const optionalTextParam = z.unknown().transform((value) => (typeof value === "string" ? value : undefined));

/** An address as accounts store it (NFC, trimmed, lower case), or a 400 in GoTrue's shape. */
export const emailParam = z
  .unknown()
  .transform((value) => (typeof value === "string" ? value.normalize("NFC").trim().toLowerCase() : ""))
  .refine(
    (email) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= EMAIL_MAX && isStorableText(email),
    refusal(400, ErrorCode.ValidationFailed, messages.validation.email),
  );

/** A password as given to be checked: any characters, up to PASSWORD_INPUT_MAX, so hashing stays cheap. */
export const passwordInputParam = textParam.refine(
  (password) => password.length <= PASSWORD_INPUT_MAX,
  refusal(400, ErrorCode.ValidationFailed, messages.validation.maxLength(PASSWORD_INPUT_MAX)),
);

/**
 * A password to be set: PASSWORD_MIN_LENGTH to PASSWORD_MAX_LENGTH characters, or a 422 with `code`. Any character one
 * can type, but no control character and no lone surrogate: a hash cannot keep those as sent (a lone half is U+FFFD
 * in UTF-8, so two different passwords would be one; NUL ends a password in bcrypt's C implementations), and nobody
 * could type them again to sign in.
 */
export const newPasswordParam = (code: ErrorCode) =>
  z
    .string()
    .refine(
      (password) => password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH,
      refusal(422, code, messages.auth.passwordTooShort(PASSWORD_MIN_LENGTH)),
    )
    .refine((password) => isStorableText(password), refusal(422, code, messages.validation.invalidCharacters));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Sign-up's `data` (the new account's user_metadata): an object, or none; stored only within size and as text. */
export const signupMetadataParam = z
  .unknown()
  .transform((value) => (isObject(value) ? value : {}))
  .refine(
    (data) => JSON.stringify(data).length <= USER_METADATA_MAX_BYTES && isStorableJson(data),
    refusal(400, ErrorCode.ValidationFailed, messages.validation.checkInput),
  );

/** `updateUser({ data })`: an object whose keys are merged into user_metadata (`mergedMetadataParam`). */
export const metadataPatchParam = z.unknown().refine(isObject, refusal(400, ErrorCode.ValidationFailed, messages.validation.checkInput));

/** user_metadata after an update's merge, held to the text and size rules of sign-up's `data`. */
export const mergedMetadataParam = z
  .custom<Record<string, unknown>>()
  .refine((merged) => isStorableJson(merged), refusal(400, ErrorCode.ValidationFailed, messages.validation.checkInput))
  .refine((merged) => JSON.stringify(merged).length <= USER_METADATA_MAX_BYTES, refusal(400, ErrorCode.ValidationFailed, messages.auth.metadataTooLarge));

/** An address and a password, and for sign-up the account's first user_metadata (`signUp`, `signInWithPassword`). */
export const credentialsParams = z.object({ email: emailParam, password: passwordInputParam, data: signupMetadataParam });
