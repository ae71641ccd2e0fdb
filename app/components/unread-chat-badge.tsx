import { RealtimeEvent } from "~/lib/realtime-events";
import { useLiveCount } from "./use-live-count";

/** The header's unread chat count: fetched, then refetched whenever a message arrives or the page changes. */
export function UnreadChatBadge() {
  const count = useLiveCount({ path: "/api/chat/unread-count", event: RealtimeEvent.chatMessage });
  if (count === 0) return null;
  return (
    <span className="ml-1 rounded-full bg-red-600 px-1.5 py-0.5 text-[10px] font-bold text-white" data-testid="unread-chat-count">
      <span className="sr-only">未読</span>
      {count > 99 ? "99+" : count}
    </span>
  );
}
