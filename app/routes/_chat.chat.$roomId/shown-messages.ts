import type { ChatMessage } from "~/models/chat.server";
import type { ChatSendBody } from "./chat-outbox";

/**
 * A message on screen: stored, or still in the outbox (送信中), or given up on (`failed`: 「再送」 sends it again). A
 * picture being sent shows the chosen file (`preview`, an object URL) and how much of it is uploaded (`progress`, 0–1).
 */
export type ShownMessage = ChatMessage & { pending?: boolean; failed?: boolean; preview?: string; progress?: number };

/** Still the sender's own copy: in the outbox or failed, not stored yet. */
const waiting = (message: ShownMessage) => Boolean(message.pending || message.failed);

/**
 * The stored messages in order, each once (a later copy of the same id wins), then the ones not stored yet in the
 * order typed; a waiting message whose stored copy has arrived (the answer, its event, or a refetch) is shown once, as
 * stored.
 */
export function inOrder(list: readonly ShownMessage[]): ShownMessage[] {
  const stored = new Map<number, ShownMessage>();
  const notStored: ShownMessage[] = [];
  for (const message of list) {
    if (waiting(message)) notStored.push(message);
    else stored.set(message.id, message);
  }
  const storedIds = new Set([...stored.values()].map((message) => message.clientId));
  return [...[...stored.values()].sort((a, b) => a.id - b.id), ...notStored.filter((message) => !storedIds.has(message.clientId))];
}

/**
 * The sender's own copy of a message just handed to the outbox, shown at once as 送信中. Its id is negative (`localId`,
 * counting down), so it never meets a stored id.
 */
export const pendingMessage = (body: ChatSendBody, localId: number, viewerId: string, now: Date): ShownMessage => ({
  id: localId,
  clientId: body.clientId,
  content: body.content,
  messageType: body.messageType ?? "TEXT",
  metadata: body.metadata ?? null,
  chatRoomId: body.roomId,
  sender: { uid: viewerId, supabaseId: viewerId, displayName: "", avatar: null },
  createdAt: now.toISOString(),
  pending: true,
});

/** The waiting copy of the message with `clientId`, changed (sending again, or failed); stored messages untouched. */
export const markWaiting = (list: readonly ShownMessage[], clientId: string, change: Partial<ShownMessage>): ShownMessage[] =>
  list.map((message) => (message.clientId === clientId && message.id < 0 ? { ...message, ...change } : message));

/** Without the waiting copy of the message with `clientId` (refused, or 「取り消す」); its stored copy, if any, stays. */
export const withoutWaiting = (list: readonly ShownMessage[], clientId: string | undefined): ShownMessage[] =>
  list.filter((message) => message.clientId !== clientId || message.id > 0);

/** The oldest stored message on screen: where the page before it starts. */
export const oldestStored = (list: readonly ShownMessage[]) => list.find((message) => !waiting(message));
