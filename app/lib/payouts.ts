import { BANK_ACCOUNT_NUMBER_VISIBLE, BANK_ACCOUNT_TYPES, PAYOUT_FEE_YEN, YEN_PER_COIN } from "./constants";

/** What a payout of this many coins transfers, in yen: coins × YEN_PER_COIN less the transfer fee, never below 0. */
export const payoutYen = (coins: number) => Math.max(0, coins * YEN_PER_COIN - PAYOUT_FEE_YEN);

/** An account number as every page and API answer shows it: `****567` (the last 3 digits). */
export const maskAccountNumber = (accountNumber: string) => `****${accountNumber.slice(-BANK_ACCOUNT_NUMBER_VISIBLE)}`;

export const accountTypeLabel = (type: string) => BANK_ACCOUNT_TYPES.find((option) => option.value === type)?.label ?? type;

/** One line for an account: 「ゲーマー銀行 渋谷支店 普通 ****567」. */
export const accountLine = (account: { bankName: string; branchName: string; accountType: string; accountNumberMasked: string }) =>
  `${account.bankName} ${account.branchName} ${accountTypeLabel(account.accountType)} ${account.accountNumberMasked}`;
