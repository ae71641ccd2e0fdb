import { useLocation } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import type { RealtimeEventName } from "~/lib/realtime-events";
import { useAuth } from "./auth-provider";
import { useRealtime, useRealtimeEvent } from "./realtime-provider";

/**
 * A count the header shows (unread chat, unread notifications): read from `path` (which answers
 * `unreadCount` at the top level) while signed in, and read again on every page change, reconnect, the
 * given realtime event and the given window event. A failed read is zero (SPEC §8).
 */
export function useLiveCount({
  path,
  event,
  windowEvent,
  initial = 0,
}: {
  path: string;
  event: RealtimeEventName;
  windowEvent?: string;
  initial?: number;
}) {
  const { api, session, status } = useAuth();
  const { reconnects } = useRealtime();
  const { key } = useLocation();
  const [count, setCount] = useState(initial);
  // A fresh server count (the root loader ran again) is the truth.
  useEffect(() => setCount(initial), [initial]);

  const refresh = useCallback(() => {
    api
      .get<{ unreadCount: number }>(path)
      .then((result) => setCount(result?.unreadCount ?? 0))
      .catch(() => setCount(0));
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
