/** Web Push to installed apps (ADR 052). */

/**
 * The kinds of push a user can switch off, in the order `/settings/notifications` lists them: the same subjects as the
 * notification mails, grouped as a phone's settings would (chat messages, booking events, reviews and tips, new
 * subscribers and the posts of those one subscribes to).
 */
export const PUSH_KINDS = ["chat", "booking", "review", "subscription"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** Devices one user may have subscribed at once; the oldest goes when one more subscribes. */
export const PUSH_DEVICES_MAX = 10;
/** A push that could not be delivered is tried again after 30 s, doubling up to 30 minutes, at most 6 times in all. */
export const PUSH_RETRY = { baseMs: 30_000, maxMs: 30 * 60_000, maxAttempts: 6 } as const;
/** A process that claimed a push has this long to send it before another process may. */
export const PUSH_CLAIM_MS = 60_000;
/** Pushes one delivery pass claims before it looks again. */
export const PUSH_BATCH = 50;
/** Each request to a push service gives up after this long (and is tried again like a 5xx). */
export const PUSH_TIMEOUT_MS = 10_000;
/** Pushes given up on are kept this long for the operators, then deleted. */
export const PUSH_FAILED_KEPT_MS = 7 * 24 * 60 * 60_000;
/** A message's text is cut to this many characters in a push (the lock screen shows two lines at most). */
export const PUSH_BODY_CHARS = 80;
/**
 * How long the push service keeps a push for a device that is offline (the `TTL` header, seconds): a chat message or
 * a booking event is stale after a day, a review or a new subscriber can wait three.
 */
export const PUSH_TTL_SECONDS: Record<PushKind, number> = {
  chat: 24 * 60 * 60,
  booking: 24 * 60 * 60,
  review: 3 * 24 * 60 * 60,
  subscription: 3 * 24 * 60 * 60,
};
/**
 * The room a tab says is open and focused keeps its pushes away while the tab says so again within this long: the
 * page repeats it every HEARTBEAT_INTERVAL_MS, and a tab that vanished without a word stops counting after this.
 */
export const PUSH_FOCUS_WINDOW_MS = 2 * 60_000;
