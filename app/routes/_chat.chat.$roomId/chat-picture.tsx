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
      <a href={full} className="block" data-testid="chat-picture">
        <img
          src={small}
          srcSet={`${small} ${Math.min(width, CHAT_IMAGE_SMALL_WIDTH)}w, ${full} ${width}w`}
          sizes={`${shown.width}px`}
          width={shown.width}
          height={shown.height}
          alt={caption || imageLabel}
          loading="lazy"
          className="h-auto max-w-full rounded-lg bg-slate-200"
        />
      </a>
      {caption ? <figcaption className="mt-1 whitespace-pre-wrap break-words">{caption}</figcaption> : null}
    </figure>
  );
}

