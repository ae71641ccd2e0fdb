import { bookingReloads, type ChatMessageEvent } from "~/lib/chat-rules";
import { RealtimeEvent } from "~/lib/realtime-events";
import { useAuth } from "./auth-provider";
import { useRealtimeEvent } from "./realtime-provider";

/**
 * For the bookings screens: a ticket_purchased / ticket_cancelled chat message reloads the bookings,
 * and a cancellation in which this user is the buyer also refreshes the coin balance.
 */
export function useBookingReloads({ reload, refreshBalance }: { reload?: () => void; refreshBalance?: () => void }) {
  const { claims } = useAuth();
  useRealtimeEvent<ChatMessageEvent>(RealtimeEvent.chatMessage, (message) => {
    const reloads = claims ? bookingReloads(message, claims.sub) : null;
    if (!reloads) return;
    reload?.();
    if (reloads.balance) refreshBalance?.();
  });
}
