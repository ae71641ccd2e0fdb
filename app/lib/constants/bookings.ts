/** Bookings: deadlines, reminders and limits of a buyer's purchase (ADR 015, docs/product.md#bookings). */
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
/** A seller may start, and both sides may check in, from this long before the desired start time. */
export const START_EARLY_MS = 15 * 60_000;
/** GET /api/tickets/all (its URL keeps the old word, ADR 056) and the management page: the newest bookings of the caller, at most this many. */
export const BOOKINGS_LIST_MAX = 200;
