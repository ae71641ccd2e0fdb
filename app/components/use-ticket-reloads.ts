import { ticketReloads, type ChatMessageEvent } from "~/lib/chat-rules";
import { RealtimeEvent } from "~/lib/realtime-events";
import { useAuth } from "./auth-provider";
import { useRealtimeEvent } from "./realtime-provider";

/**
 * For the tickets screens: a ticket_purchased / ticket_cancelled chat message reloads the tickets,
 * and a cancellation in which this user is the buyer also refreshes the coin balance (SPEC §4).
 */
export function useTicketReloads({ reloadTickets, refreshBalance }: { reloadTickets?: () => void; refreshBalance?: () => void }) {
  const { claims } = useAuth();
  useRealtimeEvent<ChatMessageEvent>(RealtimeEvent.chatMessage, (message) => {
    const reloads = claims ? ticketReloads(message, claims.sub) : null;
    if (!reloads) return;
    reloadTickets?.();
    if (reloads.balance) refreshBalance?.();
  });
}
