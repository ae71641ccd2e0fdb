/** Notifications and presence (docs/product.md#constants, docs/product.md#constants). */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_LIMIT_MAX = 50;
export const TOAST_MS = 3_000;
/** An open, visible, signed-in tab says it is here this often (docs/product.md#constants). */
export const HEARTBEAT_INTERVAL_MS = 60_000;
/** Someone is online while their last heartbeat (or a connected socket's refresh) is younger than this. */
export const ONLINE_WINDOW_MS = 2 * 60_000;
/** How often each server process refreshes its connected users and announces who went offline. */
export const PRESENCE_SWEEP_MS = 30_000;
/** Signs of life older than this are forgotten (no reader looks back further than MAIL_OFFLINE_AFTER_MS). */
export const PRESENCE_KEPT_MS = 60 * 60_000;
/** Last-socket disconnects are written in one statement per this interval, however many sockets close at once. */
export const PRESENCE_DISCONNECT_FLUSH_MS = 1_000;
