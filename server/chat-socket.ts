import type { Server as SocketServer } from "socket.io";
import type { AuthUser } from "../app/infra/auth/session";
import { log } from "../app/infra/logger.server";
import { CHAT_SEND_MAX_PENDING } from "../app/lib/constants/chat";
import { chatErrorMessage } from "../app/lib/error-messages";
import { messages } from "../app/lib/messages";
import { ClientEvent, type ChatSendAck } from "../app/lib/realtime-events";
import { sendMessageSchema } from "../app/lib/validation/chat";
import type { ChatSender } from "../app/models/chat-sender.server";
import type { ChatMessage } from "../app/models/chat.server";
import type { OverloadGuard } from "./overload";

type Ack = ChatSendAck<ChatMessage>;

const refusal = (
  status: number,
  code: string,
  message: string,
  { fieldErrors, retryAfter }: { fieldErrors?: Record<string, string[] | undefined>; retryAfter?: number } = {},
): Ack => ({
  status,
  success: false,
  error: { code, message, ...(fieldErrors ? { fieldErrors } : {}) },
  ...(retryAfter ? { retryAfter } : {}),
});

/**
 * `chat:send` over the socket the page already has (ADR 026): the browser with JavaScript sends its messages here
 * and gets the API's answer as the event's acknowledgement; POST /api/chat/messages and the plain form stay for
 * everyone else. The socket's user was verified at the handshake; each message checks again that the token has not
 * expired (here) and that the session was not revoked (in the statement that stores it), then takes the same path as
 * the API: the same schema, the same group commit, the same rules and Japanese errors.
 */
export function attachChatSend(io: SocketServer, { chat, overload }: { chat: ChatSender; overload: OverloadGuard }) {
  io.on("connection", (socket) => {
    socket.on(ClientEvent.chatSend, async (payload: unknown, ack: unknown) => {
      if (typeof ack !== "function") return; // nobody to answer: a sender always asks for the acknowledgement
      const answer = ack as (reply: Ack) => void;
      const user = socket.data.user as AuthUser;
      if (user.claims.exp * 1000 <= Date.now()) return answer(refusal(401, "unauthorized", messages.api.authRequired));
      if (overload.overloaded() || chat.pending() >= CHAT_SEND_MAX_PENDING) {
        return answer(refusal(503, "overloaded", messages.api.overloaded, { retryAfter: overload.retryAfterSeconds }));
      }
      const input = sendMessageSchema.safeParse(payload);
      if (!input.success) {
        return answer(refusal(400, "invalid_input", messages.validation.checkInput, { fieldErrors: input.error.flatten().fieldErrors }));
      }
      try {
        // offPlatformConfirmed answers the app's warning; the text is stored and counted either way (docs/product.md#trust-and-safety).
        const { offPlatformConfirmed: _confirmed, ...message } = input.data;
        const outcome = await chat.send({ senderId: user.id, sessionId: user.sessionId, ...message });
        if ("refusal" in outcome) {
          const { status, code } = outcome.refusal;
          return answer(refusal(status, code, chatErrorMessage(code)));
        }
        answer({ status: 201, success: true, data: { message: outcome.message } });
      } catch (error) {
        log.error({ err: error, userId: user.id }, "chat: a message sent over the socket failed");
        answer(refusal(500, "internal", messages.chat.sendFailed));
      }
    });
  });
}
