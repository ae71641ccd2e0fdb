/** Client rules about chat events (docs/product.md#screens, #states), pure so they are unit-tested. */

export interface ChatMessageEvent {
  id: number;
  chatRoomId: string;
  messageType: string;
  content: string;
  metadata: { buyerId?: string; caption?: string | null; type?: string } | null;
  sender: { uid: string; displayName: string; avatar: string | null };
}

/** The room a chat route shows, if any: `/chat/{roomId}`. */
export function chatRoomOf(pathname: string): string | null {
  return /^\/chat\/([^/]+)\/?$/.exec(pathname)?.[1] ?? null;
}

/**
 * Whether a live message shows a popup: never your own; none on any chat route, except inside a
 * room, for messages of other rooms.
 */
export function shouldShowChatPopup({ pathname, message, userId }: { pathname: string; message: ChatMessageEvent; userId: string }) {
  if (message.sender.uid === userId) return false;
  const onChatRoute = pathname === "/chat" || pathname.startsWith("/chat/");
  if (!onChatRoute) return true;
  const room = chatRoomOf(pathname);
  return room !== null && room !== message.chatRoomId;
}

/** The chat notices of a booking made or cancelled (their messageTypes are the product's). */
export const BOOKING_MESSAGE_TYPES = ["ticket_purchased", "ticket_cancelled"] as const;

/**
 * What a booking's chat notice asks of the client: reload the bookings; a cancellation in which
 * this user is the buyer also refreshes the coin balance.
 */
export function bookingReloads(message: ChatMessageEvent, userId: string) {
  if (!(BOOKING_MESSAGE_TYPES as readonly string[]).includes(message.messageType)) return null;
  return {
    bookings: true,
    balance: message.messageType === "ticket_cancelled" && message.metadata?.buyerId === userId,
  };
}
