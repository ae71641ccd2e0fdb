/** Mail and the account's life beyond sign-in (docs/product.md#accounts). */

/** A mail that could not be sent is tried again after 30 s, doubling up to an hour, at most 10 times in all. */
export const MAIL_RETRY = { baseMs: 30_000, maxMs: 60 * 60_000, maxAttempts: 10 } as const;
/** A process that claimed a mail has this long to send it before another process may. */
export const MAIL_CLAIM_MS = 60_000;
/** Mails one delivery pass sends before it looks again. */
export const MAIL_BATCH = 20;

/** A password recovery link works once, for an hour; a confirmation link (sign-up, new address) for a day. */
export const RECOVERY_LINK_TTL_MS = 60 * 60_000;
export const CONFIRMATION_LINK_TTL_MS = 24 * 60 * 60_000;
/**
 * Recovery mails asked for: 3 per hour per address, 10 per hour per client address. Past it the answer is 429;
 * an unknown address is counted the same, so the answer never tells whether it has an account.
 */
export const RECOVER_RATE_LIMIT = { perEmail: 3, perIp: 10, windowMs: 60 * 60_000 } as const;

/** Notification mails go to a user not seen online for this long (docs/product.md#accounts). */
export const MAIL_OFFLINE_AFTER_MS = 10 * 60_000;
/** Chat comes by mail as at most one digest per room per this long. */
export const CHAT_DIGEST_INTERVAL_MS = 60 * 60_000;
/** Messages quoted in one digest; the rest are counted. */
export const CHAT_DIGEST_MESSAGES_MAX = 5;
/** A quoted message is cut to this many characters. */
export const CHAT_DIGEST_QUOTE_CHARS = 100;
/**
 * The digest looks at rooms with a message this recent: older unread messages were a digest's subject already, or
 * came before there were digests (no flood of mails for old conversations the day this shipped).
 */
export const CHAT_DIGEST_LOOKBACK_MS = 24 * 60 * 60_000;
/** Digests one transaction of the sweeper writes. */
export const CHAT_DIGEST_BATCH = 200;
/** How many rooms quiet for longer than the lookback one digest sweep settles (a member stayed online all along). */
export const CHAT_DIGEST_STALE_ROOMS_SETTLED = 1000;

/** The kinds of notification mail a user can switch off, in the order `/settings/notifications` lists them. */
export const MAIL_KINDS = [
  "booking_requested",
  "booking_accepted",
  "booking_cancelled",
  "booking_reminder",
  "review_received",
  "payout_decided",
  "chat_digest",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
