/** Accounts (docs/product.md#accounts, #data, #constants). */
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
 * Per account alone there is no limit, only a growing delay (docs/product.md#constants), so a stranger can slow a guesser's
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
/** A session keeps at most this much of the User-Agent it began with: enough for any real browser's, not a dump. */
export const USER_AGENT_MAX = 512;
/** A client address as a session keeps it: an IPv6 address with its zone fits well within. */
export const CLIENT_IP_MAX = 64;
/** 「ログイン中の端末」 lists at most this many sessions; 「この端末以外からログアウト」 ends the rest too. */
export const SESSION_LIST_MAX = 50;
/** An OAuth sign-in (Discordでログイン) must come back from Discord and be exchanged within this. */
export const OAUTH_FLOW_TTL_MS = 10 * 60_000;
/** What the embedded auth asks Discord for: who they are, their address, and their servers (docs/product.md#accounts). */
export const DISCORD_SCOPES = ["identify", "email", "guilds"] as const;
/** A flow nobody finished is deleted this long after it expired (when the next sign-in starts). */
export const OAUTH_FLOW_KEEP_MS = 24 * 60 * 60_000;
/** A Discord avatar larger than this is not fetched for a new profile. */
export const DISCORD_AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** The servers kept per Discord identity (Discord's first page of `/users/@me/guilds`). */
export const DISCORD_GUILDS_MAX = 200;
/** The shared Discord servers a profile lists at most: a glance, not a directory. */
export const SHARED_GUILDS_SHOWN = 20;
/** TOTP factors (ADR 063), as GoTrue's MFA defaults: at most 10 factors a user, of them 10 verified. */
export const MFA_MAX_FACTORS = 10;
/** A challenge must be verified within this (GoTrue's ChallengeExpiryDuration). */
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;
/** An unverified factor never challenged is removed this long after enrolment (GoTrue's FactorExpiryDuration). */
export const MFA_FACTOR_EXPIRY_MS = 5 * 60_000;
/** A friendly name's length at most. */
export const MFA_FRIENDLY_NAME_MAX = 100;
/**
 * Codes tried against factors: 10 per factor and 30 per client address in 15 minutes, then 429, so six digits (a
 * million codes, three of them valid at a time) cannot be guessed: about 1 in 33,000 a factor a window. Challenges:
 * 20 per factor, 60 per address.
 */
export const MFA_VERIFY_RATE_LIMIT = { perFactor: 10, perIp: 30, windowMs: 15 * 60_000 } as const;
export const MFA_CHALLENGE_RATE_LIMIT = { perFactor: 20, perIp: 60, windowMs: 15 * 60_000 } as const;
/** Recovery codes made when an authenticator app is confirmed (ADR 064): ten, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** Recovery codes tried per account in 15 minutes, then 429: 5 guesses at 50 bits each. */
export const RECOVERY_CODE_RATE_LIMIT = { perUser: 5, windowMs: 15 * 60_000 } as const;
