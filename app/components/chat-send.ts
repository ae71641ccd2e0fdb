import type { Socket } from "socket.io-client";
import type { ApiClient } from "~/lib/api-client";
import { CHAT_SEND_ACK_TIMEOUT_MS } from "~/lib/constants/chat";
import { messages } from "~/lib/messages";
import { ClientEvent, type ChatSendAck } from "~/lib/realtime-events";
import type { ChatMessage } from "~/models/chat.server";

export interface ChatSendBody {
  roomId: string;
  content: string;
  /** The sender confirmed the off-platform payment warning (PRODUCT §10). */
  offPlatformConfirmed?: boolean;
}

/**
 * Sends a typed message (ADR 026): over the tab's socket when it is connected (`chat:send`, answered once the
 * message is stored), else by POST /api/chat/messages. A socket whose session the server no longer accepts (its
 * token expired while the tab was open) hands the message to the API, which refreshes the session or signs out.
 * No answer within the time limit is an error, not a retry over the API: the message may have been stored, and if
 * it was, its `chat:message` event shows it.
 */
export async function sendChatMessage({ socket, api, body }: { socket: Socket | null; api: ApiClient; body: ChatSendBody }): Promise<ChatMessage> {
  if (socket?.connected) {
    let ack: ChatSendAck<ChatMessage>;
    try {
      ack = await socket.timeout(CHAT_SEND_ACK_TIMEOUT_MS).emitWithAck(ClientEvent.chatSend, body);
    } catch {
      throw new Error(messages.chat.sendFailed);
    }
    if (ack.success) return ack.data.message;
    if (ack.status !== 401) throw new Error(ack.error.message);
  }
  const result = await api.post<{ data: { message: ChatMessage } }>("/api/chat/messages", body);
  if (!result) throw new Error(messages.chat.sendFailed);
  return result.data.message;
}
