import { useEffect, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { CHAT_CAPTION_MAX } from "~/lib/constants/chat";
import { messages } from "~/lib/messages";
import type { ChatSendBody } from "./chat-outbox";
import type { ShownMessage } from "./shown-messages";

/**
 * Pictures with JavaScript, loaded the first time one is chosen, pasted or sent (the room's first load carries only
 * ./use-picture-send.ts' handlers): the chosen picture's preview, the upload (POST /api/uploads, type chat, the
 * tab's cookies) with XMLHttpRequest, which unlike fetch reports the body's progress (a 3 MB photo on a slow connection
 * takes a minute: the person sees it move and may cancel it), then the message through the outbox like a text.
 * Nothing here imports at run time what the route's chunk holds (its modules, the chat messages), so the route stays one
 * chunk: words it needs come as props.
 */

/**
 * What this module works with: the room's state, and the room's own helpers handed over by ./use-picture-send.ts
 * rather than imported here (an import would split the route's chunk in two).
 */
export interface PictureContext {
  roomId: string;
  fileInput: RefObject<HTMLInputElement | null>;
  setChosen: (file: File | null) => void;
  setShown: Dispatch<SetStateAction<ShownMessage[]>>;
  /** Hands the message to the outbox (retry-safe by its client id) once the picture is uploaded. */
  sendBody: (body: ChatSendBody) => Promise<void>;
  setSendError: (message: string | null) => void;
  helpers: {
    newClientId: () => string;
    /** The message as 送信中, shown at once. */
    waiting: (body: ChatSendBody) => ShownMessage;
    markWaiting: (list: readonly ShownMessage[], clientId: string, change: Partial<ShownMessage>) => ShownMessage[];
    withoutWaiting: (list: readonly ShownMessage[], clientId: string) => ShownMessage[];
  };
}

/** The box a picture being sent is shown in, like a thumbnail's (./chat-picture.tsx). */
const BOX = { width: 288, height: 216 };

/** Chooses a pasted picture: into the form's file input too, so what is shown is what the plain form would post. */
export function choose({ fileInput, setChosen }: PictureContext, file: File) {
  if (!fileInput.current) return;
  const transfer = new DataTransfer();
  transfer.items.add(file);
  fileInput.current.files = transfer.files;
  setChosen(file);
}

export function clear({ fileInput, setChosen }: PictureContext) {
  if (fileInput.current) fileInput.current.value = "";
  setChosen(null);
}

/** The chosen picture's preview (`file`), or a picture being sent (`message`): one lazy component for the route. */
export function PictureView(props: { file: File; onClear: () => void } | { message: ShownMessage; label: string }) {
  return "file" in props ? <ChosenPicture {...props} /> : <PendingPicture {...props} />;
}

/** The chosen picture under the composer, with 「画像を外す」. */
function ChosenPicture({ file, onClear }: { file: File; onClear: () => void }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return (
    <p className="mt-2 flex items-center gap-3 text-sm" data-testid="chosen-picture">
      {url ? <img src={url} alt="選んだ画像" width={64} height={64} className="h-16 w-16 rounded object-cover" /> : null}
      <button type="button" onClick={onClear} className="text-slate-700 underline">
        画像を外す
      </button>
    </p>
  );
}

/** The uploads in progress, by their message's client id: 「キャンセル」 aborts one. */
const inProgress = new Map<string, XMLHttpRequest>();

/**
 * A picture being sent: the chosen file in the thumbnail's box and, while it uploads, a progress bar and 「キャンセル」.
 * `label`: its alt text without a caption.
 */
function PendingPicture({ message, label }: { message: ShownMessage; label: string }) {
  const progress = message.progress ?? 0;
  const caption = message.metadata?.caption ?? null;
  return (
    <figure className="my-1" data-testid="pending-picture">
      <img src={message.preview} alt={caption || label} {...BOX} className="h-auto max-w-full rounded-lg bg-slate-200 object-contain opacity-80" />
      {progress < 1 ? (
        <p className="mt-1 flex items-center gap-2 text-xs">
          <progress max={1} value={progress} aria-label="画像のアップロード" className="h-2 min-w-0 flex-1" />
          <span aria-hidden="true">{Math.round(progress * 100)}%</span>
          <button type="button" onClick={() => inProgress.get(message.clientId ?? "")?.abort()} className="rounded bg-white px-2 py-0.5 font-semibold text-brand-700">
            キャンセル
          </button>
        </p>
      ) : null}
      {caption ? <figcaption className="mt-1 whitespace-pre-wrap break-words">{caption}</figcaption> : null}
    </figure>
  );
}

interface UploadedPicture {
  id: string;
  width: number;
  height: number;
}

/** Resolves with the stored upload, null when cancelled; rejects with the server's Japanese message. */
function upload(clientId: string, file: Blob, onProgress: (fraction: number) => void) {
  const request = new XMLHttpRequest();
  inProgress.set(clientId, request);
  return new Promise<UploadedPicture | null>((resolve, reject) => {
    request.upload.addEventListener("progress", (event) => event.lengthComputable && onProgress(event.loaded / event.total));
    request.addEventListener("abort", () => resolve(null));
    request.addEventListener("error", () => reject(new Error(messages.api.failed)));
    request.addEventListener("load", () => {
      let body: { data?: UploadedPicture; error?: { message?: string } } | null = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // A proxy's page, a cut answer: the status says enough.
      }
      if (request.status === 201 && body?.data?.id) resolve(body.data);
      else reject(new Error(body?.error?.message ?? messages.api.failed));
    });
    const form = new FormData();
    form.append("type", "chat");
    form.append("file", file);
    request.open("POST", "/api/uploads");
    request.setRequestHeader("Accept", "application/json");
    request.send(form);
  }).finally(() => inProgress.delete(clientId));
}

/**
 * Sends the chosen picture with the composer's text as its caption: shown at once as 送信中 with the file itself, then
 * uploaded, moving its progress bar, then handed with the upload's id to the outbox (retry-safe by its client id).
 * Cancelled or refused, the waiting message goes (a refusal says why).
 */
export async function sendPicture(context: PictureContext, form: HTMLFormElement, file: File, caption: string) {
  const { roomId, setShown, helpers, sendBody, setSendError } = context;
  if (caption.length > CHAT_CAPTION_MAX) return setSendError(messages.validation.maxLength(CHAT_CAPTION_MAX));
  setSendError(null);
  form.reset();
  const body = { roomId, clientId: helpers.newClientId(), content: "", messageType: "IMAGE" as const, metadata: caption ? { caption } : null };
  const preview = URL.createObjectURL(file);
  setShown((current) => [...current, { ...helpers.waiting(body), preview, progress: 0 }]);
  clear(context);
  const patch = (change: Partial<ShownMessage>) => setShown((current) => helpers.markWaiting(current, body.clientId, change));
  const picture = await upload(body.clientId, file, (progress) => patch({ progress })).catch((error: Error) => {
    setSendError(error.message);
    return null;
  });
  if (picture) {
    patch({ progress: 1, content: picture.id, metadata: { ...body.metadata, width: picture.width, height: picture.height } });
    await sendBody({ ...body, content: picture.id });
  } else {
    setShown((current) => helpers.withoutWaiting(current, body.clientId));
  }
  URL.revokeObjectURL(preview);
}
