/**
 * The service worker (ADR 053), bundled by server/build-service-worker.mjs into build/client/sw.js
 * with the build's shell assets and version. It shows pushes and opens their pages; it keeps one cache, of the hashed
 * files every page starts with and the offline page; navigations always go to the network, and only a navigation the
 * network cannot answer gets the offline page. Nothing else is touched: no page's HTML and no `/api` answer is ever
 * stored, so signing out leaves nobody's pages behind.
 */
import { OFFLINE_PAGE_PATH } from "./lib/constants/installed-app";
import { cachesToDelete, notificationOfPush, openFromNotification, shellCacheName, sitePage, type ClientsLike } from "./lib/service-worker";

/** Set by the build: the shell's files (`/assets/…`, their names carry their content's hash) and a version of them. */
declare const __SHELL_ASSETS__: string[];
declare const __SHELL_VERSION__: string;

// The worker's own globals. TypeScript's WebWorker library cannot share a program with the DOM library the app's code
// is checked against, so the few this file uses are declared here.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  readonly preloadResponse: Promise<Response | undefined>;
  respondWith(response: Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WorkerScope {
  readonly location: Location;
  readonly registration: ServiceWorkerRegistration & { navigationPreload?: { enable(): Promise<void> } };
  readonly clients: ClientsLike & { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
}
declare const self: WorkerScope;

const CACHE = shellCacheName(__SHELL_VERSION__);
const SHELL = new Set(__SHELL_ASSETS__);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // The hashed files may come from the HTTP cache (they never change); the offline page is asked for afresh.
      await cache.addAll([...SHELL, new Request(OFFLINE_PAGE_PATH, { cache: "reload" })]);
      // A new build takes over at once: nothing this worker serves depends on which build a page came from (the old
      // page's other files come from the network as before), so there is nothing to wait for.
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await Promise.all(cachesToDelete(await caches.keys(), CACHE).map((name) => caches.delete(name)));
      // The navigation starts while the worker wakes up, so the worker costs a navigation no time.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
    return;
  }
  const url = new URL(request.url);
  if (url.origin === self.location.origin && SHELL.has(url.pathname)) event.respondWith(shellFile(request));
  // Anything else (route chunks, `/api`, images, data requests) is the browser's own business, untouched: private
  // pictures (`/media`, ADR 069) included, which are never put in a cache here.
});

/** Network only; when there is no network, the offline page (from this build's cache). */
async function navigate(event: FetchEvent): Promise<Response> {
  try {
    return (await event.preloadResponse) ?? (await fetch(event.request));
  } catch (error) {
    const offline = await caches.match(OFFLINE_PAGE_PATH, { cacheName: CACHE });
    if (offline) return offline;
    throw error;
  }
}

async function shellFile(request: Request): Promise<Response> {
  const cached = await caches.match(request, { cacheName: CACHE, ignoreVary: true });
  return cached ?? fetch(request);
}

self.addEventListener("push", (event) => {
  const { title, options } = notificationOfPush(event.data?.text(), self.location.origin);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sitePage((event.notification.data as { url?: unknown } | null)?.url, self.location.origin);
  event.waitUntil(openFromNotification(self.clients, url));
});
