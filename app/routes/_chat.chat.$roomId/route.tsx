import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { lazy, Suspense, type MouseEvent } from "react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { roomTitle } from "~/components/chat-view";
import { HiddenBadge, ReportLink } from "~/components/moderation-slots";
import { OffPlatformNotice } from "~/components/off-platform-warning";
import { Avatar } from "~/components/presence";
import { requireProfile } from "~/http/auth.server";
import { CHAT_MESSAGE_MAX } from "~/lib/constants";
import { chatErrorMessage } from "~/lib/error-messages";
import { imageLabel } from "~/lib/messages/chat";
import * as offPlatformText from "~/lib/messages/off-platform";
import { pageMeta } from "~/lib/meta";
import { looksLikeOffPlatformPayment } from "~/lib/off-platform";
import { parseParams, parseQuery } from "~/lib/params";
import { formatDateTime, isoString } from "~/lib/time";
import { roomPageQuerySchema } from "~/lib/validation/chat";
import { uuidParam } from "~/lib/validation/fields";
import { ChatError, getRoom, listMessages, markRead, type ChatMessage } from "~/models/chat.server";
import { forgetUnsentPicture } from "~/models/uploads.server";
import { ChatPicture } from "./chat-picture";
import { readRoomForm } from "./room-form.server";
import { useChatRoom } from "./use-chat-room";
import { PictureView } from "./use-picture-send";

/** The payment warning's dialog loads when a warning is due, not with the room (its first-load budget, ADR 024). */
const OffPlatformWarningDialog = lazy(() => import("~/components/off-platform-dialog").then((module) => ({ default: module.OffPlatformWarningDialog })));

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.title ?? "チャット");

const paramsSchema = z.object({ roomId: uuidParam });

async function loadRoom(request: Request, context: LoaderFunctionArgs["context"], roomId: string) {
  const { user } = await requireProfile(request, context);
  try {
    return { user, room: await getRoom({ db: context.db, userId: user.id, roomId }) };
  } catch (error) {
    // Not a participant: the room does not exist for this user.
    if (error instanceof ChatError) throw new Response(null, { status: 404 });
    throw error;
  }
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { roomId } = parseParams(paramsSchema, params, request);
  const { user, room } = await loadRoom(request, context, roomId);
  const { before } = parseQuery(roomPageQuerySchema, request);
  const page = await listMessages({ db: context.db, userId: user.id, roomId, before });
  if (!before) await markRead({ db: context.db, userId: user.id, roomId });
  // The plain form's message id (ADR 051): the browser posting the same form again (a retry after a lost answer)
  // stores the message once. Each page gets a new one; scripts make their own per message.
  return { room, title: roomTitle(room, user.id), ...page, before: before ?? null, viewerId: user.id, clientId: crypto.randomUUID() };
}

/**
 * Without JavaScript the message form posts here and comes back to the room; with a picture (multipart) the picture
 * is stored and sent in the same request, the text its caption (./room-form.server.ts). A text that looks like an off-platform
 * payment (docs/product.md#trust-and-safety) and lacks the confirmation field stores nothing and comes back (200) with the warning, the
 * text, and a 「このまま送信する」 form that posts it again with the field.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { roomId } = parseParams(paramsSchema, params, request);
  const { user } = await loadRoom(request, context, roomId);
  const form = await readRoomForm({ request, context, userId: user.id, roomId });
  if ("error" in form) return data({ error: form.error }, { status: form.status });
  if ("alreadySent" in form) throw redirect(`/chat/${roomId}`);
  const { offPlatformConfirmed, ...message } = form.message;
  if (!offPlatformConfirmed && message.messageType === "TEXT" && looksLikeOffPlatformPayment(message.content)) {
    return { offPlatform: { content: message.content, clientId: message.clientId } };
  }
  const outcome = await context.chat.send({ senderId: user.id, sessionId: user.sessionId, ...message });
  if ("refusal" in outcome) {
    // A refused message leaves nothing behind: not the picture this form stored for it either.
    if (form.storedPicture) await forgetUnsentPicture({ db: context.db, storage: context.storage, userId: user.id, uploadId: form.storedPicture });
    return data({ error: chatErrorMessage(outcome.refusal.code) }, { status: outcome.refusal.status });
  }
  throw redirect(`/chat/${roomId}`);
}

/** The room's page: its messages and composer; with JavaScript, their state is `useChatRoom`'s (use-chat-room.ts). */
export default function ChatRoomPage() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const actionError = actionData && "error" in actionData ? actionData.error : undefined;
  const offPlatformPage = actionData && "offPlatform" in actionData ? actionData.offPlatform : undefined;
  const roomId = loaded.room.id;
  const { shown, olderThan, sendError, offPlatformWarning, picture, composer, bottom, olderLink, send, loadOlder, resend, discard } = useChatRoom(loaded);
  const otherPerson = loaded.room.type === "DIRECT" ? loaded.room.participants.find((p) => p.uid !== loaded.viewerId) : undefined;
  return (
    <section aria-labelledby="room-title" className="flex w-full flex-col">
      <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3">
        {/* The way back keeps its one line; a long name is what gives way (truncated). */}
        <Link to="/chat" className="shrink-0 whitespace-nowrap text-sm text-brand-600 underline">
          チャット一覧
        </Link>
        {otherPerson ? (
          <Avatar name={otherPerson.displayName} src={otherPerson.avatar} size="sm" presence={{ userId: otherPerson.uid, online: otherPerson.online }} />
        ) : null}
        <h1 id="room-title" className="min-w-0 truncate text-lg font-bold">
          {loaded.title}
        </h1>
      </header>
      <div className="flex-1 overflow-y-auto px-4 py-4" aria-live="polite">
        {olderThan ? (
          <p className="mb-4 text-center">
            <Link ref={olderLink} to={`?before=${olderThan.id}`} onClick={loadOlder} className="text-sm text-brand-600 underline">
              以前のメッセージを表示
            </Link>
          </p>
        ) : null}
        {loaded.before ? (
          <p className="mb-4 text-center">
            <Link to={`/chat/${roomId}`} className="text-sm text-brand-600 underline">
              最新のメッセージへ
            </Link>
          </p>
        ) : null}
        {shown.length === 0 ? <p className="text-center text-slate-500">最初のメッセージを送ってみましょう。</p> : null}
        <ol className="space-y-3" aria-label="メッセージ一覧">
          {shown.map((message) => {
            const mine = message.sender.uid === loaded.viewerId;
            if (message.messageType === "ticket_purchased" || message.messageType === "ticket_cancelled") {
              return (
                <li key={message.id} className="flex justify-center">
                  <BookingNotice message={message} />
                </li>
              );
            }
            return (
              <li key={message.id} className={`flex ${mine ? "justify-end" : "justify-start"}`}>
                <div
                  className={`max-w-[80%] rounded-2xl px-4 py-2 ${mine ? "bg-brand-600 text-white" : "bg-white ring-1 ring-slate-200"} ${message.pending ? "ring-2 ring-brand-300 ring-offset-1" : ""} ${message.failed ? "ring-2 ring-red-400 ring-offset-1" : ""}`}
                  data-sending={message.pending ? "" : undefined}
                >
                  {mine ? null : <p className="text-xs font-semibold text-slate-500">{message.sender.displayName}</p>}
                  {message.hidden ? <HiddenBadge /> : null}
                  {message.messageType !== "IMAGE" ? (
                    <p className="whitespace-pre-wrap break-words">{message.content}</p>
                  ) : message.preview ? (
                    <Suspense fallback={null}>
                      <PictureView message={message} label={imageLabel} />
                    </Suspense>
                  ) : (
                    <ChatPicture message={message} />
                  )}
                  {message.failed ? (
                    <p className="mt-1 flex flex-wrap items-center justify-end gap-2 text-xs" role="alert">
                      <span>送信できませんでした</span>
                      <button type="button" className="rounded bg-white px-2 py-0.5 font-semibold text-brand-700" onClick={() => resend(message.clientId)}>
                        再送
                      </button>
                      <button type="button" className="underline" onClick={() => discard(message.clientId)}>
                        取り消す
                      </button>
                    </p>
                  ) : (
                    <time className={`block text-right text-xs ${mine ? "text-brand-100" : "text-slate-500"}`} dateTime={isoString(message.createdAt)}>
                      {message.pending ? "送信中…" : formatDateTime(message.createdAt)}
                    </time>
                  )}
                  {!mine && !message.pending && (message.messageType === "TEXT" || message.messageType === "IMAGE") ? (
                    <div className="-mb-1 text-right">
                      <ReportLink type="chat_message" id={String(message.id)} ownerName={message.sender.displayName} />
                    </div>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
        <div ref={bottom} />
      </div>
      {offPlatformPage ? (
        <section aria-labelledby="off-platform-title" role="alert" className="border-t border-amber-300 bg-amber-50 p-4" data-testid="off-platform-confirmation">
          <OffPlatformNotice content={offPlatformPage.content}>
            <Form method="post" className="flex flex-wrap items-center gap-3">
              <input type="hidden" name="content" value={offPlatformPage.content} />
              <input type="hidden" name="offPlatformConfirmed" value="true" />
              {offPlatformPage.clientId ? <input type="hidden" name="clientId" value={offPlatformPage.clientId} /> : null}
              <button type="submit" className="btn-primary">
                {offPlatformText.confirm}
              </button>
              <Link to={`/chat/${roomId}`} className="text-sm text-slate-700 underline">
                {offPlatformText.cancel}
              </Link>
            </Form>
          </OffPlatformNotice>
        </section>
      ) : null}
      {offPlatformWarning ? (
        <Suspense fallback={null}>
          <OffPlatformWarningDialog content={offPlatformWarning.content} onConfirm={offPlatformWarning.confirm} onCancel={offPlatformWarning.cancel} />
        </Suspense>
      ) : null}
      <Form method="post" encType="multipart/form-data" onSubmit={send} onMouseDown={holdFocus} className="border-t border-slate-200 bg-white p-3" data-composer="">
        {actionError || sendError ? (
          <p role="alert" className="mb-2 text-sm text-red-600">
            {sendError ?? actionError}
          </p>
        ) : null}
        <div className="flex gap-2">
          <label htmlFor="chat-content" className="sr-only">
            メッセージ
          </label>
          <input type="hidden" name="clientId" value={loaded.clientId} />
          <textarea ref={composer} id="chat-content" name="content" rows={2} defaultValue={offPlatformPage?.content} maxLength={CHAT_MESSAGE_MAX} onPaste={picture.onPaste} className="field-input flex-1 resize-none" placeholder="メッセージを入力" />
          <button type="submit" className="btn-primary self-end">
            送信
          </button>
        </div>
        <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <label htmlFor="chat-picture">画像を添付（メッセージは画像の説明に）</label>
          <input ref={picture.fileInput} id="chat-picture" type="file" name="file" accept="image/*" onChange={picture.onFileChange} className="max-w-full text-sm" />
        </p>
        {picture.chosen ? (
          <Suspense fallback={null}>
            <PictureView file={picture.chosen} onClear={picture.clear} />
          </Suspense>
        ) : null}
      </Form>
    </section>
  );
}

/**
 * A tap on the composer's buttons leaves the focus where it is. Moved to the button, it would show or hide the phone's
 * bar (app.css: the bar steps aside while the composer has focus) between the finger's down and up, moving the button
 * away from under the finger, and the tap was lost. While typing, the keyboard then stays up after 送信, as in any
 * messenger. The buttons still take the keyboard's focus from Tab.
 */
function holdFocus(event: MouseEvent<HTMLFormElement>) {
  const target = event.target as HTMLElement;
  if (target.closest("button, label, input[type=file]")) event.preventDefault();
}

/** A booking made or cancelled (docs/product.md#states), shown as a card in the conversation rather than as someone's words. */
function BookingNotice({ message }: { message: Pick<ChatMessage, "messageType" | "content" | "metadata" | "createdAt"> }) {
  const cancelled = message.messageType === "ticket_cancelled";
  return (
    <div className={`w-full max-w-md rounded-xl px-4 py-3 text-sm ring-1 ${cancelled ? "bg-slate-50 ring-slate-300" : "bg-amber-50 ring-amber-200"}`} data-testid="ticket-notice">
      <p className="font-bold">{cancelled ? "チケットのキャンセル" : "チケットの購入"}</p>
      <p className="mt-1 whitespace-pre-wrap break-words">{message.content}</p>
      {message.metadata?.caption ? <p className="mt-1 text-slate-700">{message.metadata.caption}</p> : null}
      <p className="mt-2 flex items-center justify-between gap-2">
        <Link to="/settings/ticket-management" className="font-semibold text-brand-700 underline">
          チケット管理で見る
        </Link>
        <time className="text-xs text-slate-600" dateTime={isoString(message.createdAt)}>
          {formatDateTime(message.createdAt)}
        </time>
      </p>
    </div>
  );
}
