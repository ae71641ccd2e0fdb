/** Coin packages, the platform fee, coin history, Stripe, and the coin slider. */

/** The seven coin packages (docs/product.md#data; docs/product.md#data: ids 1–7 in this order, named `{coins}コイン`). Prices are yen, tax included. */
export const COIN_PACKAGES = [
  { id: 1, coins: 500, price: 540 },
  { id: 2, coins: 1_000, price: 1_040 },
  { id: 3, coins: 3_000, price: 3_040 },
  { id: 4, coins: 5_000, price: 5_040 },
  { id: 5, coins: 10_000, price: 9_940 },
  { id: 6, coins: 20_000, price: 19_840 },
  { id: 7, coins: 50_000, price: 48_540 },
].map((pack) => ({ ...pack, name: `${pack.coins.toLocaleString("ja-JP")}コイン` }));

/** Coins (docs/product.md#coins, #constants). The fee is PLATFORM_FEE_PERCENT in the environment; this is its default. */
export const DEFAULT_PLATFORM_FEE_PERCENT = 20;
export const COIN_HISTORY_PAGE_SIZE = 20;
export const COIN_HISTORY_LIMIT_MAX = 100;
export const WEBHOOK_BODY_MAX_BYTES = 512 * 1024;
/** Stripe ids and event types are short; 255 is what Stripe documents for its own ids. */
export const STRIPE_ID_MAX = 255;

/** docs/product.md#constants: round((1 − price/coins) × 100) when positive, shown as 「N% お得」. */
export const discountPercent = (pack: { coins: number; price: number }) => Math.max(0, Math.round((1 - pack.price / pack.coins) * 100));

/** The coin slider (docs/product.md#validation, #constants): its steps, filtered by min (default 100; the review tip uses 0) and max. */
export const COIN_SLIDER_STEPS = [0, 100, 300, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 50_000] as const;
export const COIN_SLIDER_DEFAULT_MIN = 100;
export const COIN_SLIDER_DEFAULT_MAX = 50_000;
/** The slider's colour tiers start at these amounts (docs/product.md#validation). */
export const COIN_SLIDER_TIERS = { mid: 500, high: 10_000 } as const;
