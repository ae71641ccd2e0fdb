import { z } from "zod";
import { BANK_ACCOUNT_HOLDER_MAX, BANK_ACCOUNT_NUMBER_DIGITS, BANK_ACCOUNT_TYPES, BANK_BRANCH_MAX, BANK_NAME_MAX, PAYOUT_MAX_COINS, PAYOUT_MIN_COINS } from "../constants";
import { messages } from "../messages";
import { idempotencyKeySchema, singleLineText, wholeNumber } from "./fields";

/**
 * A payout request (docs/product.md#data, #coins): POST /api/payouts and the form at /settings/store/transfer share it.
 *
 * What people type is read generously and stored strictly (ADR 020): the coins may carry thousands separators or
 * full-width digits; the account number may be typed in full-width digits (NFKC makes them ASCII) but must then be
 * exactly 7 digits; the account holder is katakana, and half-width katakana (ｶﾞﾏｰ) becomes full-width (ガマー) by
 * NFKC, with runs of spaces (full-width ones too) made one.
 */

const typeError = { required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput };
const nfkc = (value: unknown) => (typeof value === "string" ? value.normalize("NFKC").trim() : value);

const coins = z.preprocess(
  (value) => (typeof value === "string" ? value.normalize("NFKC").replace(/,/g, "") : value),
  wholeNumber.pipe(z.number().min(PAYOUT_MIN_COINS, messages.payouts.coinsMin(PAYOUT_MIN_COINS)).max(PAYOUT_MAX_COINS, messages.payouts.coinsMax(PAYOUT_MAX_COINS))),
);

const accountNumberPattern = new RegExp(`^[0-9]{${BANK_ACCOUNT_NUMBER_DIGITS}}$`);
const accountNumber = z.preprocess(
  nfkc,
  z.string(typeError).min(1, messages.validation.required).regex(accountNumberPattern, messages.payouts.accountNumber(BANK_ACCOUNT_NUMBER_DIGITS)),
);

/** Full-width katakana (ァ–ヺ), the long vowel mark and single spaces between words. */
const KATAKANA_NAME = /^[\u30a1-\u30fa\u30fc]+(?: [\u30a1-\u30fa\u30fc]+)*$/;
const accountHolder = z.preprocess(
  (value) => (typeof value === "string" ? value.normalize("NFKC").replace(/\s+/g, " ").trim() : value),
  z
    .string(typeError)
    .min(1, messages.validation.required)
    .max(BANK_ACCOUNT_HOLDER_MAX, messages.validation.maxLength(BANK_ACCOUNT_HOLDER_MAX))
    .regex(KATAKANA_NAME, messages.payouts.accountHolder),
);

const accountTypes = BANK_ACCOUNT_TYPES.map((type) => type.value) as ["ordinary", "checking"];

export const payoutSchema = z.object({
  coins,
  bankName: singleLineText(BANK_NAME_MAX),
  branchName: singleLineText(BANK_BRANCH_MAX),
  accountType: z.enum(accountTypes, { errorMap: () => ({ message: messages.validation.selectRequired }) }),
  accountNumber,
  accountHolder,
});
export type PayoutInput = z.infer<typeof payoutSchema>;

/** The transfer page's confirmation form: what was entered, and the key the page was rendered with. */
export const payoutFormSchema = payoutSchema.extend({ idempotencyKey: idempotencyKeySchema });
