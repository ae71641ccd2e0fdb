import { z } from "zod";
import { MFA_FRIENDLY_NAME_MAX } from "../constants";
import { messages } from "../messages";
import { redirectToField, singleLineText, UUID } from "./fields";

/**
 * 二段階認証's forms (ADR 064): the code page after the password, and /settings/security. A code typed on a phone
 * may come with full-width digits or spaces (「１２３ ４５６」): they are read as the six digits they are.
 */

const toHalfWidth = (value: string) => value.replace(/[０-９Ａ-Ｚａ-ｚ－]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));

/**
 * Six digits, spaces and full-width forms forgiven. The patterns below also allow the separators and full-width forms the preprocess handles:
 * the browser checks them against the text as typed (app/lib/form-rules.ts), where `abcde-23456` still has its hyphen;
 * on the server they see the stripped text, where they accept exactly what `^\d{6}$` and `^[a-z2-7]{10}$` would.
 */
export const totpCode = z.preprocess(
  (value) => (typeof value === "string" ? toHalfWidth(value).replace(/[\s\u3000-]/g, "") : value),
  z.string({ required_error: messages.auth.mfaCodeRequired, invalid_type_error: messages.validation.checkInput }).regex(/^[\d０-９](?:[\s\u3000\-－]*[\d０-９]){5}$/, messages.auth.mfaCodeFormat),
);

/** A recovery code as it was shown (`abcde-23456`), any case, the hyphen and spaces optional: its ten characters. */
export const recoveryCode = z.preprocess(
  (value) => (typeof value === "string" ? toHalfWidth(value).toLowerCase().replace(/[\s\u3000-]/g, "") : value),
  z.string({ required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput }).regex(/^[a-zA-Z2-7ａ-ｚＡ-Ｚ２-７](?:[\s\u3000\-－]*[a-zA-Z2-7ａ-ｚＡ-Ｚ２-７]){9}$/, messages.auth.recoveryCodeFormat),
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
