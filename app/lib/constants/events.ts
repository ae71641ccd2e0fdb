/**
 * Events: each list on /events shows this many a page; an event page lists at most this many participants
 * (the count says the rest); participants are reminded this long before the start, once.
 */
export const EVENTS_PAGE_SIZE = 10;
export const EVENT_PARTICIPANTS_SHOWN = 100;
export const EVENT_REMINDER_BEFORE_MS = 60 * 60_000;
/** The reminder job claims this many participant rows per transaction. */
export const EVENT_REMINDER_BATCH = 20;
