import { useLocation } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { RealtimeEvent } from "~/lib/realtime-events";
import { useAuth } from "./auth-provider";
import { useRealtime, useRealtimeEvent } from "./realtime-provider";

/** The header's unread chat count: fetched, then refetched whenever a message arrives or the page changes. */
export function UnreadChatBadge() {
  const { api, session } = useAuth();
  const { reconnects } = useRealtime();
  const { key } = useLocation();
  const [count, setCount] = useState(0);

  const refresh = useCallback(() => {
    api
      .get<{ unreadCount: number }>("/api/chat/unread-count")
      .then((result) => setCount(result?.unreadCount ?? 0))
      // Failures loading counts are swallowed (SPEC §8).
      .catch(() => setCount(0));
  }, [api]);

  useEffect(() => {
    if (session) refresh();
    else setCount(0);
  }, [session, key, reconnects, refresh]);
  useRealtimeEvent(RealtimeEvent.chatMessage, refresh);

  if (count === 0) return null;
  return (
    <span className="ml-1 rounded-full bg-red-600 px-1.5 py-0.5 text-[10px] font-bold text-white" data-testid="unread-chat-count">
      <span className="sr-only">未読</span>
      {count > 99 ? "99+" : count}
    </span>
  );
}
