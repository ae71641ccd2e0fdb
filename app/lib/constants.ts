/**
 * Business constants and limits (SPEC §9, PRODUCT §9) in one place. Features add theirs here.
 */
export const PRODUCT_NAME = "GamerMatch";
export const PRODUCT_TAGLINE = "ゲーマーマッチングプラットフォーム";

/** Every time shown to a person is in this zone (SPEC §1). */
export const DISPLAY_TIME_ZONE = "Asia/Tokyo";
/** A numeric timestamp below this is in seconds, otherwise in milliseconds (SPEC §3). */
export const SECONDS_TIMESTAMP_LIMIT = 1e12;

/** A failed chunk load reloads a path at most once within this window (SPEC §9). */
export const CHUNK_RELOAD_WINDOW_MS = 10_000;
/** The API client tries a failed network request this many times in all, pausing 100 ms × attempt (SPEC §7, §9). */
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

export const INQUIRY_NAME_MAX = 50;
export const INQUIRY_BODY_MAX = 2000;
export const INQUIRY_CATEGORIES = [
  { value: "account", label: "アカウント・ログイン" },
  { value: "coins", label: "コイン・お支払い" },
  { value: "tickets", label: "チケット・予約" },
  { value: "trouble", label: "不具合の報告" },
  { value: "report", label: "違反行為の報告" },
  { value: "other", label: "その他" },
] as const;
export type InquiryCategory = (typeof INQUIRY_CATEGORIES)[number]["value"];

/** The seven coin packages (SPEC §3; PRODUCT §4: ids 1–7 in this order, named `{coins}コイン`). Prices are yen, tax included. */
export const COIN_PACKAGES = [
  { id: 1, coins: 500, price: 540 },
  { id: 2, coins: 1_000, price: 1_040 },
  { id: 3, coins: 3_000, price: 3_040 },
  { id: 4, coins: 5_000, price: 5_040 },
  { id: 5, coins: 10_000, price: 9_940 },
  { id: 6, coins: 20_000, price: 19_840 },
  { id: 7, coins: 50_000, price: 48_540 },
].map((pack) => ({ ...pack, name: `${pack.coins.toLocaleString("ja-JP")}コイン` }));

/** Coins (PRODUCT §5, §9). The fee is PLATFORM_FEE_PERCENT in the environment; this is its default. */
export const DEFAULT_PLATFORM_FEE_PERCENT = 20;
export const COIN_HISTORY_PAGE_SIZE = 20;
export const COIN_HISTORY_LIMIT_MAX = 100;
export const WEBHOOK_BODY_MAX_BYTES = 512 * 1024;
/** Stripe ids and event types are short; 255 is what Stripe documents for its own ids. */
export const STRIPE_ID_MAX = 255;

/** SPEC §9: round((1 − price/coins) × 100) when positive, shown as 「N% お得」. */
export const discountPercent = (pack: { coins: number; price: number }) => Math.max(0, Math.round((1 - pack.price / pack.coins) * 100));

/** Accounts (PRODUCT §3, §4, §9). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 72;
export const DISPLAY_NAME_MAX = 30;
export const BIO_MAX = 500;
export const GAME_RANK_MAX = 30;
export const GAME_SLUG_MAX = 64;
export const PROFILE_GAMES_MAX = 10;
/**
 * Failed sign-in attempts: 10 per 15 minutes per address and per (account, address); then that address gets 429.
 * Per account alone there is no limit, only a growing delay (PRODUCT §9), so a stranger can slow a guesser's
 * every address down but never lock the owner out: from the 10th failure in the window each attempt on the
 * account waits 0.5 s, doubling per further failure up to 5 s.
 */
export const SIGN_IN_RATE_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;
export const SIGN_IN_ACCOUNT_DELAY = { afterFailures: 10, baseMs: 500, maxMs: 5_000 } as const;
/** user_metadata (signUp's `options.data`) rides in every token and cookie: keep it small. */
export const USER_METADATA_MAX_BYTES = 8 * 1024;
/** How deep user_metadata may nest. */
export const JSON_DEPTH_MAX = 16;
/** A spent refresh token presented again within this window (two tabs refreshing at once) gets the current session. */
export const REFRESH_TOKEN_REUSE_INTERVAL_MS = 10_000;

/**
 * Image uploads (PRODUCT §2, §9, ADR 017): at most 10 MB, judged by content, re-encoded with the longest side at most
 * 2048 px (an avatar a square of at most 512 px), 20 per hour per user. A decoded image above UPLOAD_MAX_INPUT_PIXELS
 * is refused before it is decoded (a small file can expand to gigabytes). The multipart form's text fields are
 * small; the form around the file may add at most UPLOAD_FORM_OVERHEAD_BYTES before a Content-Length is refused.
 * UPLOAD_MAX_BYTES, UPLOAD_MAX_SIDE and UPLOAD_RATE_LIMIT are with the posts' constants below.
 */
export const UPLOAD_KINDS = ["post", "avatar", "chat"] as const;
export const AVATAR_SIDE = 512;
export const UPLOAD_MAX_INPUT_PIXELS = 50_000_000;
export const UPLOAD_FIELD_MAX_BYTES = 4 * 1024;
export const UPLOAD_FORM_MAX_FIELDS = 10;
export const UPLOAD_FORM_OVERHEAD_BYTES = 64 * 1024;
/** Stored images are named by their content's hash, so a URL's bytes never change: cached for a year. */
export const UPLOAD_CACHE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** Chat (SPEC §9, PRODUCT §9). */
export const CHAT_ROOMS_PAGE_SIZE = 20;
export const CHAT_MESSAGES_PAGE_SIZE = 30;
export const CHAT_MESSAGE_MAX = 1000;
export const CHAT_ROOM_NAME_MAX = 50;
export const CHAT_GROUP_MAX_PARTICIPANTS = 20;
/**
 * Load shedding (ADR 011): API requests in progress, queries waiting for a database connection, and the event
 * loop's lateness, beyond which new API work is refused with 503 + Retry-After. Past its ceiling (`npm run
 * bench:chat -- --ceiling`) the server's queue grows without bound; these keep a refusal and /healthz fast.
 */
export const OVERLOAD_DEFAULTS = {
  maxInFlight: 64,
  maxDatabaseQueue: 64,
  /** The event loop's mean delay over a window of eventLoopWindowMs, in lateWindows windows in a row: saturated. */
  maxEventLoopDelayMs: 100,
  eventLoopWindowMs: 500,
  lateWindows: 3,
  retryAfterSeconds: 1,
} as const;

export const CHAT_RATE_LIMIT = { limit: 10, windowMs: 10_000 } as const;
export const REALTIME_CONNECT_TIMEOUT_MS = 10_000;
export const CHAT_POPUP_MS = 5_000;

/** Notifications and presence (SPEC §9, PRODUCT §9). */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_LIMIT_MAX = 50;
export const TOAST_MS = 3_000;
/** An open, visible, signed-in tab says it is here this often (SPEC §9). */
export const HEARTBEAT_INTERVAL_MS = 60_000;
/** Someone is online while their last heartbeat (or a connected socket's refresh) is younger than this. */
export const ONLINE_WINDOW_MS = 2 * 60_000;
/** How often each server process refreshes its connected users and announces who went offline. */
export const PRESENCE_SWEEP_MS = 30_000;
/** Last-socket disconnects are written in one statement per this interval, however many sockets close at once. */
export const PRESENCE_DISCONNECT_FLUSH_MS = 1_000;

/** The coin slider (SPEC §5, §9): its steps, filtered by min (default 100; the review tip uses 0) and max. */
export const COIN_SLIDER_STEPS = [0, 100, 300, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 50_000] as const;
export const COIN_SLIDER_DEFAULT_MIN = 100;
export const COIN_SLIDER_DEFAULT_MAX = 50_000;
/** The slider's colour tiers start at these amounts (SPEC §5). */
export const COIN_SLIDER_TIERS = { mid: 500, high: 10_000 } as const;

/** Tickets (PRODUCT §4, §6, §9). */
export const LISTING_TITLE_MAX = 60;
export const LISTING_DESCRIPTION_MAX = 1000;
export const LISTING_MINUTES = [15, 30, 60, 90, 120] as const;
export const LISTING_MAX_UNITS = 8;
export const LISTING_PRICE_MIN = 100;
export const LISTINGS_PAGE_SIZE = 20;
export const LISTINGS_LIMIT_MAX = 50;
/** A seller may keep this many listings that are not archived. */
export const LISTINGS_PER_SELLER_MAX = 20;
export const BOOKING_NOTE_MAX = 500;
/** A seller who has not accepted a pending booking within this time: it is cancelled and refunded (PRODUCT §6). */
export const ACCEPT_DEADLINE_MS = 48 * 3600_000;
/** An in-progress booking whose end passed this long ago completes by itself (PRODUCT §6). */
export const AUTO_COMPLETE_AFTER_MS = 24 * 3600_000;
/** The seller has not checked in this long after the desired start: the buyer may cancel with a full refund. */
export const NO_SHOW_GRACE_MS = 15 * 60_000;
/**
 * An accepted booking that nobody started this long after its desired start is cancelled and refunded, so coins
 * never stay in escrow for a session that did not happen (ADR 015).
 */
export const NOT_STARTED_CANCEL_AFTER_MS = 24 * 3600_000;
/** How far ahead a session may be booked. */
export const BOOKING_HORIZON_MS = 90 * 24 * 3600_000;
/** How often every server process runs the sweeper (deadlines); it also runs once at start-up. */
export const SWEEP_INTERVAL_MS = 30_000;
/** Rows a sweeper job acts on per run, each in its own transaction. */
export const SWEEP_BATCH = 100;
/** A seller may start, and both sides may check in, from this long before the desired start time. */
export const START_EARLY_MS = 15 * 60_000;
/** GET /api/tickets/all and the management page: the newest bookings of the caller, at most this many. */
export const TICKETS_ALL_MAX = 200;

/** Reviews (SPEC §5, §9; PRODUCT §4). */
export const REVIEW_COMMENT_MAX = 500;
/** The review dialog's success state closes itself after this long (SPEC §4, §9). */
export const REVIEW_SUCCESS_CLOSE_MS = 3_000;
/** The tip is chosen with the coin slider from 0 (SPEC §5). */
export const REVIEW_TIP_MIN = 0;
export const REVIEWS_PAGE_SIZE = 10;

/** Posts, profiles and footprints (SPEC §5, §9; PRODUCT §4, §9). */
export const POST_MAX = 500;
export const POST_RATE_LIMIT = { limit: 5, windowMs: 60_000 } as const;
export const POSTS_PAGE_SIZE = 20;
export const POSTS_LIMIT_MAX = 50;
export const GALLERY_PAGE_SIZE = 30;
export const FOOTPRINTS_PAGE_SIZE = 50;
/** A profile's overview shows this many of the user's active listings. */
export const PROFILE_LISTINGS_MAX = 6;
/** Uploads (PRODUCT §9): at most this many bytes, judged by content, re-encoded with the longest side at most 2048 px. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_MAX_SIDE = 2048;
export const UPLOAD_RATE_LIMIT = { limit: 20, windowMs: 3600_000 } as const;
/** What a browser may offer to upload (the server judges the bytes, whatever the type says). */
export const UPLOAD_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;

/** Subscriptions (PRODUCT §4, §5; issue 15): a monthly plan in coins (slider steps from 100), 30 days a payment. */
export const SUBSCRIPTION_PRICE_MIN = 100;
export const SUBSCRIPTION_DESCRIPTION_MAX = 300;
export const SUBSCRIPTION_PERIOD_MS = 30 * 24 * 3600_000;
/** No automatic renewal: the subscriber is reminded this long before the expiry, once. */
export const SUBSCRIPTION_REMINDER_BEFORE_MS = 3 * 24 * 3600_000;

/**
 * Payouts (PRODUCT §5, §9): earned coins only, at least 1,000 a request, 1 coin = ¥1, transfer fee ¥0. A request
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

/**
 * Events (issue 16): each list on /events shows this many a page; an event page lists at most this many participants
 * (the count says the rest); participants are reminded this long before the start, once.
 */
export const EVENTS_PAGE_SIZE = 10;
export const EVENT_PARTICIPANTS_SHOWN = 100;
export const EVENT_REMINDER_BEFORE_MS = 60 * 60_000;
/** The reminder job claims this many participant rows per transaction. */
export const EVENT_REMINDER_BATCH = 20;

/** Game pages and communities (issue 16). */
export const COMMUNITY_SLUG_MAX = 64;
/** A community page shows this many of its newest members. */
export const COMMUNITY_MEMBERS_SHOWN = 8;
/** A game page shows this many sellers (active listings, online first) and this many recent posts. */
export const GAME_PAGE_SELLERS_MAX = 12;
export const GAME_PAGE_POSTS_MAX = 10;
/** A game page shows this many of its upcoming events. */
export const GAME_PAGE_EVENTS_MAX = 4;

/** Explore (issue 16): results a page, the longest keyword query, and how many words of it count. */
export const EXPLORE_PAGE_SIZE = 20;
/** The deepest page (0-based): 1,000 results; further is a narrower search, not a deeper offset. */
export const EXPLORE_PAGE_MAX = 49;
export const EXPLORE_QUERY_MAX = 50;
export const EXPLORE_QUERY_WORDS_MAX = 5;
/** Home (issue 16): how many of each section it shows (its HTML stays small). */
export const HOME_ONLINE_SELLERS_MAX = 6;
export const HOME_GAMES_MAX = 8;
export const HOME_EVENTS_MAX = 3;
export const HOME_POSTS_MAX = 4;
/** How long home's popular games (counted over every active listing) are reused by a server process. */
export const HOME_POPULAR_GAMES_TTL_MS = 60_000;
