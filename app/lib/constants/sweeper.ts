// The sweeper (server/sweeper.ts, ADR 015): one loop for the deadlines of bookings, subscriptions and events.
/** How often every server process runs the sweeper (deadlines); it also runs once at start-up. */
export const SWEEP_INTERVAL_MS = 30_000;
/** How soon the sweeper runs again after a run the database's absence cut short (a restart), until one goes through. */
export const SWEEP_RETRY_MS = 1_000;
/** Rows a sweeper job acts on per run, each in its own transaction. */
export const SWEEP_BATCH = 100;
