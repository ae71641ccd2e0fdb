/**
 * Payouts (docs/product.md#coins, #constants): earned coins only, at least 1,000 a request, 1 coin = ¥1, transfer fee ¥0. A request
 * is capped so its coins and yen always fit the database's integer columns (ADR 020). Bank names and branches are
 * 1–40 characters, the account holder (katakana) up to 60, the account number exactly 7 digits.
 */
export const PAYOUT_MIN_COINS = 1_000;
export const PAYOUT_MAX_COINS = 10_000_000;
export const YEN_PER_COIN = 1;
export const PAYOUT_FEE_YEN = 0;
export const BANK_NAME_MAX = 40;
export const BANK_BRANCH_MAX = 40;
export const BANK_ACCOUNT_HOLDER_MAX = 60;
export const BANK_ACCOUNT_NUMBER_DIGITS = 7;
/** Digits of the account number a page or the API shows; the rest are `*`. */
export const BANK_ACCOUNT_NUMBER_VISIBLE = 3;
export const BANK_ACCOUNT_TYPES = [
  { value: "ordinary", label: "普通" },
  { value: "checking", label: "当座" },
] as const;
/** The transfer page and GET /api/payouts show the newest this many requests. */
export const PAYOUT_HISTORY_MAX = 50;
/** The operators' desk (ADR 072): the oldest this many requested payouts, each with the seller's newest earlier ones. */
export const PAYOUT_DESK_MAX = 100;
export const PAYOUT_DESK_HISTORY = 5;
/** The longest reason an operator gives for paying or rejecting (the audit trail's limit). */
export const PAYOUT_REASON_MAX = 1000;
/** Reveals and decisions one operator may post on the payouts desk. */
export const PAYOUT_DESK_RATE_LIMIT = { limit: 60, windowMs: 10 * 60_000 } as const;
