/** Tickets (docs/product.md#data, #bookings, #constants). */
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
/** A seller who has not accepted a pending booking within this time: it is cancelled and refunded (docs/product.md#bookings). */
export const ACCEPT_DEADLINE_MS = 48 * 3600_000;
/** An in-progress booking whose end passed this long ago completes by itself (docs/product.md#bookings). */
export const AUTO_COMPLETE_AFTER_MS = 24 * 3600_000;
/** The seller has not checked in this long after the desired start: the buyer may cancel with a full refund. */
export const NO_SHOW_GRACE_MS = 15 * 60_000;
/**
 * An accepted booking that nobody started this long after its desired start is cancelled and refunded, so coins
 * never stay in escrow for a session that did not happen (ADR 015).
 */
export const NOT_STARTED_CANCEL_AFTER_MS = 24 * 3600_000;
/** Both sides of an accepted booking are reminded this long before its start (docs/product.md#accounts, by mail when away). */
export const BOOKING_REMINDER_BEFORE_MS = 60 * 60_000;
/** Bookings the start reminder claims per transaction. */
export const BOOKING_REMINDER_BATCH = 20;
/** How far ahead a session may be booked. */
export const BOOKING_HORIZON_MS = 90 * 24 * 3600_000;
/** How often every server process runs the sweeper (deadlines); it also runs once at start-up. */
export const SWEEP_INTERVAL_MS = 30_000;
/** How soon the sweeper runs again after a run the database's absence cut short (a restart), until one goes through. */
export const SWEEP_RETRY_MS = 1_000;
/** Rows a sweeper job acts on per run, each in its own transaction. */
export const SWEEP_BATCH = 100;
/** A seller may start, and both sides may check in, from this long before the desired start time. */
export const START_EARLY_MS = 15 * 60_000;
/** GET /api/tickets/all and the management page: the newest bookings of the caller, at most this many. */
export const TICKETS_ALL_MAX = 200;
