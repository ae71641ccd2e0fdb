/** Subscriptions (docs/product.md#data, #coins): a monthly plan in coins (slider steps from 100), 30 days a payment. */
export const SUBSCRIPTION_PRICE_MIN = 100;
export const SUBSCRIPTION_DESCRIPTION_MAX = 300;
export const SUBSCRIPTION_PERIOD_MS = 30 * 24 * 3600_000;
/** No automatic renewal: the subscriber is reminded this long before the expiry, once. */
export const SUBSCRIPTION_REMINDER_BEFORE_MS = 3 * 24 * 3600_000;
/** A gamer's subscriptions listed at most (their settings page, GET /api/user/subscriptions, /api/auth/me). */
export const SUBSCRIPTIONS_LIST_MAX = 100;
