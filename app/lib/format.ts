/** `12,345`: integers (coins, yen) with Japanese digit grouping. */
export const formatNumber = (value: number) => value.toLocaleString("ja-JP");
