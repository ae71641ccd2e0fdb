import { NOTIFICATION_BADGE, NOTIFICATION_FALLBACK_PATH, NOTIFICATION_ICON, SHELL_CACHE_PREFIX } from "./constants/installed-app";
import { PRODUCT_NAME } from "./constants/site";
import { pushFallbackBody } from "./messages/installed-app";

/**
 * What the service worker (app/entry.worker.ts, ADR 053) decides, apart from the browser it runs in so that unit tests
 * can call it.
 */

/** A push's payload, as the sender writes it: JSON `{ "title", "body", "url", "tag" }`. */
export interface PushPayload {
  title: string;
  body: string;
  /** The page to open, a path of this site. */
  url: string;
  /** One notification per tag: a newer push with the same tag (the same room) replaces the older one. */
  tag?: string;
}

/** What `registration.showNotification` gets for a push. */
export interface ShownNotification {
  title: string;
  options: NotificationOptions & { data: { url: string } };
}

/**
 * The notification a push shows. A push with no readable payload still shows one, a generic one that opens the
 * notifications page: Chrome lets a site push only on the promise that every push is shown (`userVisibleOnly`).
 */
export function notificationOfPush(data: string | null | undefined, origin: string): ShownNotification {
  const payload = parsePayload(data);
  const url = sitePage(payload?.url, origin);
  return {
    title: payload?.title || PRODUCT_NAME,
    options: {
      body: payload?.body ?? pushFallbackBody,
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      lang: "ja",
      ...(payload?.tag ? { tag: payload.tag } : {}),
      data: { url },
    },
  };
}

function parsePayload(data: string | null | undefined): Partial<PushPayload> | null {
  if (!data) return null;
  try {
    const value: unknown = JSON.parse(data);
    if (!value || typeof value !== "object") return null;
    const { title, body, url, tag } = value as Record<string, unknown>;
    const text = (field: unknown) => (typeof field === "string" ? field : undefined);
    return { title: text(title), body: text(body), url: text(url), tag: text(tag) };
  } catch {
    return null;
  }
}

/** The absolute address of a page of this site; anything else (another site, nothing, nonsense) is the fallback. */
export function sitePage(url: unknown, origin: string): string {
  if (typeof url === "string") {
    try {
      const resolved = new URL(url, origin);
      if (resolved.origin === origin) return resolved.href;
    } catch {
      // Not a URL: the fallback.
    }
  }
  return new URL(NOTIFICATION_FALLBACK_PATH, origin).href;
}

/** The parts of a service worker's `clients` and its WindowClient that a notification's click uses. */
export interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<WindowClientLike | null>;
}
export interface ClientsLike {
  matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
  openWindow(url: string): Promise<unknown>;
}

/**
 * A notification's click: a window of the app already at the address comes to the front; else the app's most recently
 * focused window goes there (the person's tab, rather than a second one beside it); else a new window opens.
 */
export async function openFromNotification(clients: ClientsLike, url: string): Promise<unknown> {
  // Newest focus first, as the Clients API lists them.
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const there = windows.find((window) => window.url === url);
  if (there) return there.focus();
  // A window this worker does not control (a page loaded with a hard reload) cannot be navigated: a new one opens.
  const moved = windows[0] ? await windows[0].navigate(url).catch(() => null) : null;
  if (moved) return moved.focus();
  return clients.openWindow(url);
}

/** The cache of one build's shell; the name changes whenever what it holds could. */
export const shellCacheName = (version: string) => `${SHELL_CACHE_PREFIX}${version}`;

/**
 * The caches an activated worker deletes: every one but its own. The worker is the only code that writes Cache Storage
 * (ADR 053), so anything else there is an older build's, and would otherwise stay for good.
 */
export const cachesToDelete = (names: readonly string[], current: string) => names.filter((name) => name !== current);
