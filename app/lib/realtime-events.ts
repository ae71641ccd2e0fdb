import type { DESK_REPORTS_EVENT } from "./constants/desk";
/** The realtime event names (docs/product.md#realtime), shared by the server and the browser. */
export const RealtimeEvent = {
  chatMessage: "chat:message",
  gameStarted: "game:started",
  gameExtended: "game:extended",
  coinsPurchaseCompleted: "coins:purchase-completed",
  notificationNew: "notification:new",
  presence: "presence",
  /**
   * The server is going away (a deploy, ADR 048): the client reconnects at once, which the load balancer sends to
   * another replica, instead of waiting for its socket to be cut and then for the reconnection's first delay.
   */
  move: "server:move",
} as const;
/** The desk's own event (ADR 071) is named with the desk's constants, so its name never travels in the gamers' bundle. */
export type RealtimeEventName = (typeof RealtimeEvent)[keyof typeof RealtimeEvent] | typeof DESK_REPORTS_EVENT;

/**
 * What the browser sends over its socket: a chat message, answered through Socket.IO's acknowledgement with
 * `ChatSendAck`, the API's envelope with its HTTP status; and the chat room its tab shows while focused
 * (`{ roomId }`, or `{ roomId: null }` when it no longer does), which keeps that room's pushes away (ADR 052).
 */
export const ClientEvent = { chatSend: "chat:send", chatFocus: "chat:focus" } as const;

export type ChatSendAck<Message> =
  | { status: 201; success: true; data: { message: Message } }
  | {
      status: number;
      success: false;
      error: { code: string; message: string; fieldErrors?: Record<string, string[] | undefined> };
      /** With 503: when to try again, in seconds. */
      retryAfter?: number;
    };

export const userChannel = (userId: string) => `user:${userId}`;
export const roomChannel = (roomId: string) => `room:${roomId}`;

/**
 * Notifications whose news also arrives as its own live event (`game:started`, `game:extended`), which shows the
 * toast: the notification goes to the bell and the list, not to a second toast.
 */
export const LIVE_EVENT_NOTIFICATION_TYPES: readonly string[] = ["booking_started", "booking_extended"];
