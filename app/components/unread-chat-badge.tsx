import { RealtimeEvent } from "~/lib/realtime-events";
import { useLiveCount } from "./use-live-count";

/**
 * The unread chat count: fetched, then refetched whenever a message arrives or the page changes. Read once per page
 * (SiteChrome), for both the header's チャット and the phone bar's.
 */
export function useUnreadChatCount() {
  return useLiveCount({ path: "/api/chat/unread-count", event: RealtimeEvent.chatMessage });
}

/** The count on a チャット link; nothing when there is nothing unread. */
export function UnreadChatBadge({ count, className = "" }: { count: number; className?: string }) {
  if (count === 0) return null;
  return (
    <span className={`rounded-full bg-red-600 px-1.5 py-0.5 text-[10px] leading-none font-bold text-white ${className}`} data-testid="unread-chat-count">
      <span className="sr-only">未読</span>
      {count > 99 ? "99+" : count}
    </span>
  );
}
