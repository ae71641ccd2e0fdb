/** Game pages, communities, explore and home. */

/** Game pages and communities. */
export const COMMUNITY_SLUG_MAX = 64;
/** A community page shows this many of its newest members. */
export const COMMUNITY_MEMBERS_SHOWN = 8;
/** A game page shows this many sellers (active listings, online first) and this many recent posts. */
export const GAME_PAGE_SELLERS_MAX = 12;
export const GAME_PAGE_POSTS_MAX = 10;
/** A game page shows this many of its upcoming events. */
export const GAME_PAGE_EVENTS_MAX = 4;

/** Explore: results a page, the longest keyword query, and how many words of it count. */
export const EXPLORE_PAGE_SIZE = 20;
/** The deepest page (0-based): 1,000 results; further is a narrower search, not a deeper offset. */
export const EXPLORE_PAGE_MAX = 49;
export const EXPLORE_QUERY_MAX = 50;
export const EXPLORE_QUERY_WORDS_MAX = 5;
/** Home: how many of each section it shows (its HTML stays small). */
export const HOME_ONLINE_SELLERS_MAX = 6;
export const HOME_GAMES_MAX = 8;
export const HOME_EVENTS_MAX = 3;
export const HOME_POSTS_MAX = 4;
/** A gamer's communities listed at most (the post form's choice, GET /api/user/communities). */
export const USER_COMMUNITIES_MAX = 100;
