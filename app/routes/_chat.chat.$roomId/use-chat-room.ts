import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { useAuth } from "~/components/auth-provider";
import { useFocusedRoom } from "~/components/chat-focus";
import { useRealtime, useRealtimeEvent } from "~/components/realtime-provider";
import { useVisualViewportHeight } from "~/components/use-visual-viewport-height";
import type { ChatMessageEvent } from "~/lib/chat-rules";
import { messages as text } from "~/lib/messages";
import { RealtimeEvent } from "~/lib/realtime-events";
import type { ChatMessage } from "~/models/chat.server";
import { untilAnswered } from "./catch-up";
import { ChatSendError, createChatOutbox, newClientId, type ChatSendBody } from "./chat-outbox";
import { inOrder, markWaiting, oldestStored, pendingMessage, withoutWaiting, type ShownMessage } from "./shown-messages";
import { usePictureSend } from "./use-picture-send";

/** What the room's loader gave the page: the room, a page of its messages, and whose screen this is. */
export interface LoadedRoom {
  room: { id: string };
  messages: ShownMessage[];
  hasMore: boolean;
  /** The page asked for older messages (`?before=`): it does not follow new ones. */
  before: number | null;
  viewerId: string;
}

/**
 * The room's client state: the messages on screen (stored, 送信中 or failed) kept in order as answers, events,
 * refetches and older pages arrive; sending through the tab's outbox with 「再送」 and 「取り消す」; the off-platform
 * payment warning before a text goes; scrolling to the newest message and loading older ones.
 */
export function useChatRoom(loaded: LoadedRoom) {
  const { viewerId, before } = loaded;
  const roomId = loaded.room.id;
  const { api } = useAuth();
  const { reconnects, socket } = useRealtime();
  const socketRef = useRef(socket);
  socketRef.current = socket;
  const outbox = useMemo(() => createChatOutbox({ socket: () => socketRef.current, api }), [api]);
  // What each waiting message was sent with, for 「再送」.
  const sent = useRef(new Map<string, ChatSendBody>());
  // Open and focused here: no push of this room's messages meanwhile (ADR 052).
  useFocusedRoom(roomId);
  const [shown, setShown] = useState<ShownMessage[]>(loaded.messages);
  const [hasMore, setHasMore] = useState(loaded.hasMore);
  const [sendError, setSendError] = useState<string | null>(null);
  // A text waiting for the answer to the off-platform payment warning.
  const [warning, setWarning] = useState<{ content: string; form: HTMLFormElement } | null>(null);
  const composer = useRef<HTMLTextAreaElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const olderLink = useRef<HTMLAnchorElement>(null);
  const loadingOlder = useRef(false);
  const localId = useRef(-1);

  // A new room or a new page from the server (no-JS paging, revalidation) replaces what is shown.
  useEffect(() => {
    setShown(loaded.messages);
    setHasMore(loaded.hasMore);
  }, [loaded.messages, loaded.hasMore]);

  useRealtimeEvent<ChatMessageEvent>(RealtimeEvent.chatMessage, (message) => {
    if (message.chatRoomId !== roomId) return;
    setShown((current) => inOrder([...current, message as ChatMessage]));
    // Read as it arrives; the header's badge must not count it.
    void api.post(`/api/chat/rooms/${roomId}/mark-read`).catch(() => {});
  });

  // After a reconnect, fetch what may have been missed: the server is the truth. A refusal (503 while it is busy) or a
  // lost request is tried again until answered, or until the room is left or it reconnects again.
  useEffect(() => {
    if (reconnects === 0 || before) return;
    const stop = new AbortController();
    void untilAnswered(() => api.get<{ data: { messages: ChatMessage[] } }>(`/api/chat/messages?roomId=${roomId}`), { signal: stop.signal }).then((result) => {
      if (result && !stop.signal.aborted) setShown((current) => inOrder([...current, ...result.data.messages]));
    });
    return () => stop.abort();
  }, [reconnects, api, roomId, before]);

  // Follow the conversation when a message is added at the end, not when older ones are prepended; and when the
  // on-screen keyboard opens or closes, keep the newest message above the composer.
  const followNewest = () => {
    if (!before) bottom.current?.scrollIntoView({ block: "end" });
  };
  const newestId = shown.at(-1)?.id;
  useEffect(followNewest, [newestId, before]);
  useVisualViewportHeight(followNewest);

  const oldest = oldestStored(shown);

  const loadOlder = async (event?: MouseEvent) => {
    if (!oldest || loadingOlder.current) return;
    event?.preventDefault();
    loadingOlder.current = true;
    const result = await api.get<{ data: { messages: ChatMessage[]; hasMore: boolean } }>(`/api/chat/messages?roomId=${roomId}&before=${oldest.id}`).catch(() => undefined);
    loadingOlder.current = false;
    if (!result) return;
    setShown((current) => inOrder([...result.data.messages, ...current]));
    setHasMore(result.data.hasMore);
  };

  // Scrolling up to the "older" link loads the previous page in place.
  useEffect(() => {
    const link = olderLink.current;
    if (!link || !hasMore) return;
    const observer = new IntersectionObserver(([entry]) => entry?.isIntersecting && void loadOlder());
    observer.observe(link);
    return () => observer.disconnect();
  });

  /** Hands the message to the outbox (again, for 「再送」) and shows what came of it. */
  const sendBody = async (body: ChatSendBody) => {
    sent.current.set(body.clientId, body);
    const mark = (change: Pick<ShownMessage, "pending" | "failed">) => setShown((current) => markWaiting(current, body.clientId, change));
    mark({ pending: true, failed: false });
    try {
      const message = await outbox.send(body);
      setShown((current) => inOrder([...current, message]));
      sent.current.delete(body.clientId);
    } catch (error) {
      if (error instanceof ChatSendError && error.retryable) return mark({ pending: false, failed: true });
      // Refused (a rule): the text goes back to the composer, unless something new is being typed there.
      setShown((current) => withoutWaiting(current, body.clientId));
      sent.current.delete(body.clientId);
      if (composer.current && !composer.current.value) composer.current.value = body.messageType === "IMAGE" ? (body.metadata?.caption ?? "") : body.content;
      setSendError(error instanceof Error ? error.message : text.api.failed);
    }
  };

  const deliver = (form: HTMLFormElement, content: string, offPlatformConfirmed: boolean) => {
    // The composer is emptied of what is sent, but not of anything typed since the tap: the first message waits for
    // the payment check to load, and on a slow connection the next one may already be under way.
    const field = form.elements.namedItem("content");
    if (field instanceof HTMLTextAreaElement && field.value.trim() === content) field.value = "";
    const body: ChatSendBody = { roomId, content, clientId: newClientId(), ...(offPlatformConfirmed ? { offPlatformConfirmed } : {}) };
    // Shown at once as 送信中, replaced by the stored copy when it comes.
    const pending = pendingMessage(body, localId.current--, viewerId, new Date());
    setShown((current) => [...current, pending]);
    return sendBody(body);
  };

  const checking = useRef(false);
  const picture = usePictureSend({ roomId, viewerId, nextLocalId: () => localId.current--, setShown, sendBody, setSendError });

  /** The composer's submit with JavaScript: checked here, then sent by the outbox instead of the form's post. */
  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const content = String(fields.get("content") ?? "").trim();
    const file = fields.get("file");
    // A picture: uploaded with its progress shown, then sent like a text; the text is its caption.
    if (file instanceof File && file.size > 0) return picture.sendPicture(form, file, content);
    if (!content) return setSendError(text.chat.emptyMessage);
    setSendError(null);
    // The payment check loads with the first message, not with the room (its first-load budget, ADR 024); meanwhile a
    // second tap on 送信 sends nothing (the form still holds the text).
    if (checking.current) return;
    checking.current = true;
    let looksLikeOffPlatformPayment: (text: string) => boolean;
    try {
      looksLikeOffPlatformPayment = await loadOffPlatformCheck();
    } catch {
      // Offline, or a deploy replaced the chunk: nothing was sent, the text stays, and 送信 tries again.
      return setSendError(text.api.failed);
    } finally {
      checking.current = false;
    }
    if (looksLikeOffPlatformPayment(content)) return setWarning({ content, form });
    await deliver(form, content, false);
  };

  /** The off-platform payment warning on screen: its text, and sending it after all or going back to the composer. */
  const offPlatformWarning = warning && {
    content: warning.content,
    confirm: () => {
      setWarning(null);
      void deliver(warning.form, warning.content, true);
    },
    cancel: () => {
      setWarning(null);
      composer.current?.focus();
    },
  };

  const resend = (clientId: string | undefined) => {
    const body = clientId && sent.current.get(clientId);
    if (body) void sendBody(body);
  };

  const discard = (clientId: string | undefined) => {
    setShown((current) => withoutWaiting(current, clientId));
    if (clientId) sent.current.delete(clientId);
  };

  return {
    shown,
    /** The oldest stored message on screen while older ones are left to load: the 「以前のメッセージを表示」 link's. */
    olderThan: hasMore ? oldest : undefined,
    sendError,
    offPlatformWarning,
    picture,
    composer,
    bottom,
    olderLink,
    send,
    loadOlder,
    resend,
    discard,
  };
}

/** The off-platform payment check (~/lib/off-platform), imported when the first message is sent (again if that failed). */
let offPlatformCheck: Promise<(text: string) => boolean> | undefined;
function loadOffPlatformCheck() {
  offPlatformCheck ??= import("~/lib/off-platform").then(
    (module) => module.looksLikeOffPlatformPayment,
    (error: unknown) => {
      offPlatformCheck = undefined;
      throw error;
    },
  );
  return offPlatformCheck;
}
