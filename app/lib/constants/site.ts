/** The product's name, time, the browser's reload/retry/build checks, and limits shared by every form and list. */

export const PRODUCT_NAME = "GamerMatch";
export const PRODUCT_TAGLINE = "ゲーマーマッチングプラットフォーム";

/** Every time shown to a person is in this zone (docs/product.md#what-it-is). */
export const DISPLAY_TIME_ZONE = "Asia/Tokyo";
/** A numeric timestamp below this is in seconds, otherwise in milliseconds (docs/product.md#data). */
export const SECONDS_TIMESTAMP_LIMIT = 1e12;

/** A failed chunk load reloads a path at most once within this window (docs/product.md#constants). */
export const CHUNK_RELOAD_WINDOW_MS = 10_000;
/** The API client tries a failed network request this many times in all, pausing 100 ms × attempt (docs/product.md#api, #constants). */
export const FETCH_RETRY_ATTEMPTS = 3;
export const FETCH_RETRY_DELAY_MS = 100;

/** How often an open tab asks whether a new build was deployed. */
export const BUILD_CHECK_INTERVAL_MS = 5 * 60_000;

/** Text fields without a product limit of their own (ADR 014): an email, a URL, a path to return to, a typed password. */
export const EMAIL_MAX = 254;
export const URL_MAX = 2048;
export const REDIRECT_TO_MAX = 2048;
export const PASSWORD_INPUT_MAX = 1024;
/** Query strings: the largest offset and page number a list accepts; beyond is a 400, not a database error. */
export const QUERY_OFFSET_MAX = 1_000_000;
export const PAGE_NUMBER_MAX = 10_000;

/**
 * The read replica (DATABASE_READ_URL, ADR 040): how often its replay position is compared with the primary's, how
 * far behind it may be and still serve reads, and how long a caller's last write routes their reads to the primary
 * (the `gm_wrote` cookie: longer than the lag allowed, so that an expired cookie never points at a stale replica).
 */
export const READ_REPLICA = {
  pollMs: 200,
  maxLagMs: 5_000,
  connectTimeoutMs: 2_000,
  pendingMax: 600,
  wroteCookie: "gm_wrote",
  wroteCookieMaxAgeSeconds: 60,
} as const;
