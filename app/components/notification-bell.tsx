import { Link } from "@remix-run/react";
import { RealtimeEvent } from "~/lib/realtime-events";
import { useLiveCount } from "./use-live-count";

/** Says "the notification count changed" to the bell from elsewhere in the tab (the /notifications page). */
export const NOTIFICATIONS_CHANGED_EVENT = "gm:notifications-changed";

/** The header's bell: a link to /notifications with the unread count, kept live (docs/product.md#api, #errors). */
export function NotificationBell({ className, initialCount }: { className: string; initialCount: number }) {
  // The server's count renders the first paint (and the page without JavaScript).
  const count = useLiveCount({
    path: "/api/notifications?countOnly=true",
    event: RealtimeEvent.notificationNew,
    windowEvent: NOTIFICATIONS_CHANGED_EVENT,
    initial: initialCount,
  });

  const shown = count > 99 ? "99+" : String(count);
  // The name starts with the number the badge shows (WCAG 2.5.3), so 「2」 said aloud or by voice control matches.
  const name = count === 0 ? "通知" : count > 99 ? "99件以上の未読通知" : `${count}件の未読通知`;

  return (
    <Link to="/notifications" className={className} aria-label={name}>
      <svg aria-hidden="true" viewBox="0 0 24 24" width={20} height={20} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {count > 0 ? (
        <span className="ml-0.5 rounded-full bg-red-600 px-1.5 py-0.5 text-[10px] leading-none font-bold text-white" data-testid="notification-count">
          {shown}
        </span>
      ) : null}
    </Link>
  );
}
