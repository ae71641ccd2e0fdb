/** Pieces several areas' messages share. */
export const coinText = (amount: number) => `${amount.toLocaleString("ja-JP")}コイン`;
export const hours = (ms: number) => ms / 3_600_000;
