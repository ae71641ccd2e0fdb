/** Chat (docs/product.md#constants, docs/product.md#constants). */
export const CHAT_ROOMS_PAGE_SIZE = 20;
export const CHAT_MESSAGES_PAGE_SIZE = 30;
export const CHAT_MESSAGE_MAX = 1000;
/** An image message's caption. */
export const CHAT_CAPTION_MAX = 500;
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

/** Seconds a client is told to wait (`Retry-After`) while the database is out of reach (ADR 049). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/**
 * A draining replica tells its sockets to move in waves `gapMs` apart (ADR 048): at least `least` sockets a wave, and
 * at most `most` waves (200 sockets: 50 waves of 4, 40 a second over 5 s; never more than 5 s, however many sockets).
 * At 70 a second the replica taking them in fell behind on a busy machine (p99 0.8–1.8 s against 0.1 s). Those
 * still there `waitMs` after the last wave are cut.
 */
export const SOCKET_MOVE = { gapMs: 100, least: 3, most: 50, waitMs: 2_000 } as const;
/** Sockets told to move in each wave, of `count` in all. */
export const socketsPerMoveWave = (count: number) => Math.max(SOCKET_MOVE.least, Math.ceil(count / SOCKET_MOVE.most));
/** Pauses between tries of a chat room's fetch after a reconnect: 1, 2, 4, 8 and 16 s; then the next reconnect tries again. */
export const CHAT_CATCH_UP_PAUSES_MS = [1_000, 2_000, 4_000, 8_000, 16_000] as const;

export const CHAT_RATE_LIMIT = { limit: 10, windowMs: 10_000 } as const;
export const REALTIME_CONNECT_TIMEOUT_MS = 10_000;
export const CHAT_POPUP_MS = 5_000;
/** Messages stored by one statement at most (group commit, ADR 026); more wait for the next. */
export const CHAT_SEND_MAX_GROUP = 200;
/**
 * Groups in a commit at once on PostgreSQL (PGlite has one connection: one). More would make the groups smaller and
 * the commits more numerous for no gain on two cores (ADR 026).
 */
export const CHAT_SEND_POSTGRES_CONCURRENCY = 2;
/** How long the browser waits for the server's answer to a message sent over the socket. */
export const CHAT_SEND_ACK_TIMEOUT_MS = 10_000;
/**
 * The browser's outbox (ADR 051): a message waits for a reconnecting socket up to `reconnectWaitMs` (a deploy moves
 * sockets within 1 s, a crashed replica's within 3 s: ADR 048), then goes by the API; a failed try is made again after
 * `firstDelayMs`, doubling up to `maxDelayMs`; after `giveUpAfterMs` without an answer the message is shown as not
 * sent, with 「再送」.
 */
export const CHAT_SEND_RETRY = { reconnectWaitMs: 3_000, firstDelayMs: 500, maxDelayMs: 8_000, giveUpAfterMs: 60_000 } as const;
/** Messages waiting for a commit beyond which a socket's new message is refused as overloaded (503). */
export const CHAT_SEND_MAX_PENDING = 2000;
