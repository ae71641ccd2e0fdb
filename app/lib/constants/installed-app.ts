/** The installed app (ADR 053): the service worker, its cache and what a notification shows. */

/** Where the service worker is served (server/app.ts) and registered from; its scope is the whole site. */
export const SERVICE_WORKER_PATH = "/sw.js";
/** The page a navigation without a network gets, rendered by app/lib/offline-page.ts and precached by the worker. */
export const OFFLINE_PAGE_PATH = "/offline.html";
/** Every cache the worker keeps is named this plus its build's version; any other name is an old build's, and goes. */
export const SHELL_CACHE_PREFIX = "gm-shell-";
/** The app's icon beside a notification, and the monochrome mark in the status bar (server/make-icons.mjs). */
export const NOTIFICATION_ICON = "/icons/icon-192.png";
export const NOTIFICATION_BADGE = "/icons/badge-96.png";
/** Where a push without a usable address opens. */
export const NOTIFICATION_FALLBACK_PATH = "/notifications";
