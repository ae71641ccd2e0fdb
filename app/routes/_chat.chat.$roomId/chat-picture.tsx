import { CHAT_IMAGE_SMALL_WIDTH } from "~/lib/constants/uploads";
import { imageLabel } from "~/lib/messages/chat";
import { mediaPath } from "~/lib/paths";
import type { ChatMessage } from "~/models/chat.server";

/** The box a thumbnail is shown in at most, in CSS pixels: the bubble's width on a phone, a third of a screen's height. */
const THUMBNAIL_BOX = 288;

/**
 * The box a picture is shown in: its own size shrunk to fit THUMBNAIL_BOX, never enlarged. Set as the image's width and
 * height so the page keeps its place while the picture loads; CSS narrows it further on a narrow screen, ratio kept.
 */
export function thumbnailSize({ width, height }: { width: number; height: number }) {
  const scale = Math.min(1, THUMBNAIL_BOX / width, THUMBNAIL_BOX / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * An image message in the room (docs/product.md#chat): the thumbnail (the small variant, or the full picture on a dense
 * screen, by `srcset`) in a box sized before it loads, linking to the full picture; alt text from the caption. Both
 * come from /media, which shows them only to the room's members.
 */
export function ChatPicture({ message }: { message: Pick<ChatMessage, "content" | "metadata"> }) {
  const caption = message.metadata?.caption ?? null;
  const width = message.metadata?.width ?? THUMBNAIL_BOX;
  const height = message.metadata?.height ?? THUMBNAIL_BOX;
  const shown = thumbnailSize({ width, height });
  const full = mediaPath(message.content);
  const small = mediaPath(message.content, "small");
  return (
    <figure className="my-1">
      <a href={full} target="_blank" rel="noopener" className="block" data-testid="chat-picture">
        <img
          src={small}
          srcSet={`${small} ${Math.min(width, CHAT_IMAGE_SMALL_WIDTH)}w, ${full} ${width}w`}
          sizes={`${shown.width}px`}
          width={shown.width}
          height={shown.height}
          alt={caption || imageLabel}
          loading="lazy"
          decoding="async"
          className="h-auto max-w-full rounded-lg bg-slate-200"
        />
      </a>
      {caption ? <figcaption className="mt-1 whitespace-pre-wrap break-words">{caption}</figcaption> : null}
    </figure>
  );
}

/**
 * A picture being sent, with JavaScript: the chosen file itself (an object URL) in the thumbnail's box, and while it
 * uploads a progress bar with its percentage and 「キャンセル」.
 */
export function PendingPicture({ preview, progress, caption, onCancel }: { preview: string; progress: number; caption: string | null; onCancel: () => void }) {
  return (
    <figure className="my-1" data-testid="pending-picture">
      <img src={preview} alt={caption || imageLabel} width={THUMBNAIL_BOX} height={Math.round((THUMBNAIL_BOX * 3) / 4)} className="h-auto max-w-full rounded-lg bg-slate-200 object-contain opacity-80" />
      {progress < 1 ? (
        <p className="mt-1 flex items-center gap-2 text-xs">
          <progress max={1} value={progress} aria-label="画像のアップロード" className="h-2 min-w-0 flex-1" />
          <span aria-hidden="true">{Math.round(progress * 100)}%</span>
          <button type="button" onClick={onCancel} className="rounded bg-white px-2 py-0.5 font-semibold text-brand-700">
            キャンセル
          </button>
        </p>
      ) : null}
      {caption ? <figcaption className="mt-1 whitespace-pre-wrap break-words">{caption}</figcaption> : null}
    </figure>
  );
}
