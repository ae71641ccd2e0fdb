import { useLocation } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import type { RealtimeEventName } from "~/lib/realtime-events";
import { useAuth } from "./auth-provider";
import { useRealtime, useRealtimeEvent } from "./realtime-provider";

/**
 * A count the header shows (unread chat, unread notifications, the coin balance): read from `path` (by default
 * its top-level `unreadCount`) while signed in, and read again on every page change, reconnect, the given
 * realtime event and the given window event. A failed read is zero (docs/product.md#errors).
 */
export function useLiveCount({
  path,
  event,
  windowEvent,
  initial = 0,
  pick = (body) => (body as { unreadCount?: number } | undefined)?.unreadCount,
}: {
  path: string;
  event: RealtimeEventName;
  windowEvent?: string;
  initial?: number;
  /** The number in the response body. */
  pick?: (body: unknown) => number | undefined;
}) {
  const { api, session, status } = useAuth();
  const { reconnects } = useRealtime();
  const { key } = useLocation();
  const [count, setCount] = useState(initial);
  // A fresh server count (the root loader ran again) is the truth.
  useEffect(() => setCount(initial), [initial]);

  const refresh = useCallback(() => {
    api
      .get<unknown>(path)
      .then((result) => setCount(pick(result) ?? 0))
      .catch(() => setCount(0));
    // `pick` is a fixed reader per caller: not a reason to read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, path]);

  useEffect(() => {
    if (session) refresh();
    // While the browser is still reading the session, the server's count stands.
    else if (status === "signedOut" || status === "invalid") setCount(0);
  }, [session, status, key, reconnects, refresh]);
  useRealtimeEvent(event, refresh);
  useEffect(() => {
    if (!windowEvent) return;
    window.addEventListener(windowEvent, refresh);
    return () => window.removeEventListener(windowEvent, refresh);
  }, [windowEvent, refresh]);
  return count;
}
