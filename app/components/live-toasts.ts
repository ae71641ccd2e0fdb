import { messages } from "~/lib/messages";
import { LIVE_EVENT_NOTIFICATION_TYPES, RealtimeEvent } from "~/lib/realtime-events";
import type { Notification } from "~/models/notification.server";
import { useRealtimeEvent } from "./realtime-provider";
import { showToast } from "./toaster";

/** A member's live news as toasts: every new notification, and a session that started or was extended. */
export function useLiveToasts() {
  useRealtimeEvent<Notification>(RealtimeEvent.notificationNew, (notification) => {
    // A session starting or being extended has its own live event below, with the same news: one toast, not two.
    if (LIVE_EVENT_NOTIFICATION_TYPES.includes(notification.type)) return;
    showToast({ id: notification.id, type: "info", title: notification.title, description: notification.body || undefined, link: notification.link ?? undefined });
  });
  useRealtimeEvent<{ bookingId: string; ticketTitle: string }>(RealtimeEvent.gameStarted, ({ bookingId, ticketTitle }) =>
    showToast({ id: `started:${bookingId}`, type: "success", title: messages.bookings.startedTitle(ticketTitle), description: messages.bookings.startedToastBody, link: "/settings/ticket-management" }),
  );
  useRealtimeEvent<{ bookingId: string; message: string }>(RealtimeEvent.gameExtended, ({ bookingId, message }) =>
    showToast({ id: `extended:${bookingId}:${message}`, type: "info", title: messages.bookings.extendedToastTitle, description: message, link: "/settings/ticket-management" }),
  );
}
