/** The realtime event names (PRODUCT §7), shared by the server and the browser. */
export const RealtimeEvent = {
  chatMessage: "chat:message",
  gameStarted: "game:started",
  gameExtended: "game:extended",
  coinsPurchaseCompleted: "coins:purchase-completed",
  notificationNew: "notification:new",
  presence: "presence",
} as const;
export type RealtimeEventName = (typeof RealtimeEvent)[keyof typeof RealtimeEvent];

export const userChannel = (userId: string) => `user:${userId}`;
export const roomChannel = (roomId: string) => `room:${roomId}`;

/**
 * Notifications whose news also arrives as its own live event (`game:started`, `game:extended`), which shows the
 * toast: the notification goes to the bell and the list, not to a second toast.
 */
export const LIVE_EVENT_NOTIFICATION_TYPES: readonly string[] = ["booking_started", "booking_extended"];
