import type { Socket } from "socket.io-client";
import { ApiError, type ApiClient } from "~/lib/api-client";
import { CHAT_SEND_ACK_TIMEOUT_MS, CHAT_SEND_RETRY } from "~/lib/constants/chat";
import { messages } from "~/lib/messages";
import { ClientEvent, type ChatSendAck } from "~/lib/realtime-events";
import { sleep as defaultSleep } from "~/lib/sleep";
import type { ChatMessage } from "~/models/chat.server";

export interface ChatSendBody {
  roomId: string;
  /** Text, or a picture's upload id (`messageType` IMAGE) with its caption in `metadata`. */
  content: string;
  messageType?: "TEXT" | "IMAGE";
  metadata?: { caption: string } | null;
  /** Made once per message (`newClientId`): every try of the message carries it, and the server stores it once. */
  clientId: string;
  /** The sender confirmed the off-platform payment warning (docs/product.md#trust-and-safety). */
  offPlatformConfirmed?: boolean;
}

/**
 * A message that could not be sent. `retryable` when nobody said no (the connection or the server failed for longer
 * than the outbox keeps trying): sending it again with the same client id is safe. Otherwise the server refused it
 * (a rule: blocked, too many messages, the room is gone) and its message says why.
 */
export class ChatSendError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    // Set here rather than as a class field, which the browser build would compile to a helper of its own.
    this.name = "ChatSendError";
  }
}

/** A random version 4 UUID. `crypto.randomUUID` exists in secure contexts only; an http:// address on a LAN is not one. */
export function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * One try's result: the stored message, a refusal to report, or "again": after at least `pauseMs`, and after the
 * growing backoff when `backoff` (the server or the network failed; not when the socket dropped, since waiting for it
 * to reconnect is the pause, nor after an acknowledgement that never came, which was a pause already).
 */
type Try = { message: ChatMessage } | { refused: string } | { again: { pauseMs: number; backoff: boolean } };

export interface ChatOutboxOptions {
  /** The tab's socket as it is now (it is replaced on sign-in); null while there is none. */
  socket: () => Socket | null;
  api: Pick<ApiClient, "post">;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export type ChatOutbox = ReturnType<typeof createChatOutbox>;

/**
 * Sends the messages a tab's person types, one after another in the order typed (ADR 051). Each goes over the tab's
 * socket when it is connected (`chat:send`, answered once the message is stored: ADR 026), else by POST
 * /api/chat/messages. A try that gets no answer (its acknowledgement timed out, the socket dropped, the request failed,
 * the server was briefly unavailable) is made again with the same client id, so the server stores the message once
 * and answers the retry with the stored message. While the socket reconnects (a deploy moves it: ADR 048) the message
 * waits for it, up to `reconnectWaitMs`, and goes by the API after that. The message after it waits, so the order is
 * kept. Past `giveUpAfterMs` without an answer the message fails as retryable; a refusal fails it at once.
 */
export function createChatOutbox({ socket: currentSocket, api, sleep = defaultSleep, now = Date.now }: ChatOutboxOptions) {
  const queue: Array<{ body: ChatSendBody; resolve: (message: ChatMessage) => void; reject: (error: unknown) => void }> = [];
  let running = false;

  async function overSocket(socket: Socket, body: ChatSendBody): Promise<Try | "use the api"> {
    let ack: ChatSendAck<ChatMessage>;
    try {
      ack = await socket.timeout(CHAT_SEND_ACK_TIMEOUT_MS).emitWithAck(ClientEvent.chatSend, body);
    } catch {
      return { again: { pauseMs: 0, backoff: false } }; // no answer in time, or the socket dropped
    }
    if (ack.success) return { message: ack.data.message };
    // A socket whose session expired meanwhile: the API refreshes the session (or signs out).
    if (ack.status === 401) return "use the api";
    if (ack.status >= 500) return { again: { pauseMs: (ack.retryAfter ?? 0) * 1000, backoff: true } };
    return { refused: ack.error.message };
  }

  async function overApi(body: ChatSendBody): Promise<Try> {
    try {
      const result = await api.post<{ data: { message: ChatMessage } }>("/api/chat/messages", body);
      return result ? { message: result.data.message } : { refused: messages.api.authRequired };
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return { refused: error.message };
      return { again: { pauseMs: 0, backoff: true } }; // the network, or the server unavailable (503) or failing
    }
  }

  /** Resolves once the socket is connected, or after `ms`: whether it is. */
  function connected(socket: Socket, ms: number): Promise<boolean> {
    if (socket.connected) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        socket.off("connect", done);
        resolve(socket.connected);
      };
      const timer = setTimeout(done, ms);
      socket.on("connect", done);
    });
  }

  async function deliver(body: ChatSendBody): Promise<ChatMessage> {
    const started = now();
    let failures = 0;
    for (;;) {
      const socket = currentSocket();
      let result: Try | "use the api" = "use the api";
      if (socket && (await connected(socket, CHAT_SEND_RETRY.reconnectWaitMs))) result = await overSocket(socket, body);
      if (result === "use the api") result = await overApi(body);
      if ("message" in result) return result.message;
      if ("refused" in result) throw new ChatSendError(result.refused, false);
      if (now() - started >= CHAT_SEND_RETRY.giveUpAfterMs) throw new ChatSendError(messages.chat.sendFailed, true);
      // Growing pauses with jitter, so tabs that lost the same server do not all come back at once.
      const { pauseMs, backoff } = result.again;
      const delay = backoff ? Math.min(CHAT_SEND_RETRY.firstDelayMs * 2 ** failures++, CHAT_SEND_RETRY.maxDelayMs) * (0.5 + Math.random()) : 0;
      if (Math.max(pauseMs, delay) > 0) await sleep(Math.max(pauseMs, delay));
    }
  }

  async function run() {
    if (running) return;
    running = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          next.resolve(await deliver(next.body));
        } catch (error) {
          next.reject(error);
        }
      }
    } finally {
      running = false;
    }
  }

  return {
    /** Queues the message; resolves with the stored message, or rejects with a `ChatSendError`. */
    send(body: ChatSendBody): Promise<ChatMessage> {
      return new Promise<ChatMessage>((resolve, reject) => {
        queue.push({ body, resolve, reject });
        void run();
      });
    },
    /** Messages queued behind the one being sent. */
    waiting: () => queue.length,
  };
}
