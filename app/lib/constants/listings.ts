/** Listings: a seller's offers (docs/decisions/056-one-word-per-concept-bookings-in-rooms.md). */
export const LISTING_TITLE_MAX = 60;
export const LISTING_DESCRIPTION_MAX = 1000;
export const LISTING_MINUTES = [15, 30, 60, 90, 120] as const;
export const LISTING_MAX_UNITS = 8;
export const LISTING_PRICE_MIN = 100;
export const LISTINGS_PAGE_SIZE = 20;
export const LISTINGS_LIMIT_MAX = 50;
/** A seller may keep this many listings that are not archived. */
export const LISTINGS_PER_SELLER_MAX = 20;
