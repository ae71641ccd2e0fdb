import { z } from "zod";
import { MFA_FRIENDLY_NAME_MAX } from "../constants";
import { messages } from "../messages";
import { redirectToField, singleLineText, UUID } from "./fields";

/**
 * 二段階認証's forms (ADR 064): the code page after the password, and /settings/security. A code typed on a phone
 * may come with full-width digits or spaces (「１２３ ４５６」): they are read as the six digits they are.
 */

/**
 * The text as the schemas read it: NFKC (full-width digits and letters, the ideographic space and the full-width
 * hyphen become their ASCII forms, as the browser's check in app/lib/form-rules.ts normalises them too), without
 * spaces and hyphens.
 */
const compact = (value: unknown) => (typeof value === "string" ? value.normalize("NFKC").replace(/[\s-]/g, "") : value);
const compactLowerCase = (value: unknown) => {
  const text = compact(value);
  return typeof text === "string" ? text.toLowerCase() : text;
};

/**
 * Six digits. The pattern also allows the separators `compact` strips: the browser checks it against the text as
 * typed (NFKC'd), where `123 456` still has its space; on the server it sees the compact text, where it accepts
 * exactly what `^\d{6}$` would. The hyphen in the class is escaped: the browser reads patterns with the `v` flag,
 * where a bare one is an error and Conform leaves such a pattern out.
 */
export const totpCode = z.preprocess(
  compact,
  z.string({ required_error: messages.auth.mfaCodeRequired, invalid_type_error: messages.validation.checkInput }).regex(/^\d(?:[\s\-]*\d){5}$/, messages.auth.mfaCodeFormat),
);

/** A recovery code as it was shown (`abcde-23456`), any case, the hyphen and spaces optional: its ten characters. */
export const recoveryCode = z.preprocess(
  compactLowerCase,
  z.string({ required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput }).regex(/^[a-zA-Z2-7](?:[\s\-]*[a-zA-Z2-7]){9}$/, messages.auth.recoveryCodeFormat),
);

const factorId = z.string({ required_error: messages.validation.checkInput }).regex(UUID, messages.validation.checkInput);

/** /login/mfa: the authenticator app's code, or a recovery code (each a form of its own). */
export const secondStepCodeSchema = z.object({ intent: z.literal("code"), code: totpCode, factorId: factorId.optional(), redirectTo: redirectToField });
export const recoveryCodeSchema = z.object({ intent: z.literal("recovery"), recoveryCode, redirectTo: redirectToField });
export const secondStepSchema = z.discriminatedUnion("intent", [secondStepCodeSchema, recoveryCodeSchema]);

/** The base32 secret an enrolment showed, posted back so a mistyped code can show the same QR code again. */
const enrolmentSecret = z.string().regex(/^[A-Z2-7]{16,64}$/, messages.validation.checkInput);
const friendlyName = singleLineText(MFA_FRIENDLY_NAME_MAX, { required: false }).optional();

/** /settings/security's forms. */
export const enrolSchema = z.object({ intent: z.literal("enroll"), friendlyName });
export const confirmFactorSchema = z.object({ intent: z.literal("confirm"), factorId, code: totpCode, secret: enrolmentSecret, friendlyName });
export const removeFactorSchema = z.object({ intent: z.literal("remove"), factorId, code: totpCode });
export const renewCodesSchema = z.object({ intent: z.literal("renewCodes"), code: totpCode });
export const securitySchema = z.discriminatedUnion("intent", [enrolSchema, confirmFactorSchema, removeFactorSchema, renewCodesSchema]);
