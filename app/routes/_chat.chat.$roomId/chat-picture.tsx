import { lazy, Suspense, useCallback, useRef, useState } from "react";
import { CHAT_IMAGE_SMALL_WIDTH } from "~/lib/constants/uploads";
import { imageLabel, viewerOpen } from "~/lib/messages/chat";
import { mediaPath } from "~/lib/paths";
import type { ChatMessage } from "~/models/chat.server";

const PictureViewer = lazy(() => import("./picture-viewer").then((module) => ({ default: module.PictureViewer })));

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
 * come from /media, which shows them only to the room's members. Its dominant colour fills the box until the
 * thumbnail arrives; with JavaScript a click opens the full-screen viewer (./picture-viewer.tsx, loaded on the first
 * click: the room's first-load budget, ADR 024), without it the link opens the full picture.
 */
export function ChatPicture({ message }: { message: Pick<ChatMessage, "content" | "metadata"> }) {
  const caption = message.metadata?.caption ?? null;
  const link = useRef<HTMLAnchorElement>(null);
  const [viewing, setViewing] = useState(false);
  const closed = useCallback(() => setViewing(false), []);
  const width = message.metadata?.width ?? THUMBNAIL_BOX;
  const height = message.metadata?.height ?? THUMBNAIL_BOX;
  const shown = thumbnailSize({ width, height });
  const placeholder = /^#[0-9a-f]{6}$/.test(message.metadata?.placeholder ?? "") ? message.metadata!.placeholder : undefined;
  const full = mediaPath(message.content);
  const small = mediaPath(message.content, "small");
  return (
    <figure className="my-1">
      <a
        ref={link}
        href={full}
        className="relative block w-fit"
        data-testid="chat-picture"
        aria-label={`${viewerOpen}${caption ? `：${caption}` : ""}`}
        onClick={(event) => {
          // A new tab or window (a modifier, the middle button) gets the picture itself, as without JavaScript.
          if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          event.preventDefault();
          setViewing(true);
        }}
      >
        {placeholder ? (
          // The picture's dominant colour fills its box until the thumbnail arrives (ADR 070): an SVG's fill, since the
          // CSP allows no inline style.
          <svg aria-hidden="true" className="absolute inset-0 h-full w-full rounded-lg" data-testid="chat-picture-placeholder">
            <rect width="100%" height="100%" fill={placeholder} />
          </svg>
        ) : null}
        <img
          src={small}
          srcSet={`${small} ${Math.min(width, CHAT_IMAGE_SMALL_WIDTH)}w, ${full} ${width}w`}
          sizes={`${shown.width}px`}
          width={shown.width}
          height={shown.height}
          alt={caption || imageLabel}
          loading="lazy"
          className={`relative h-auto max-w-full rounded-lg ${placeholder ? "" : "bg-slate-200"}`}
        />
      </a>
      {caption ? <figcaption className="mt-1 whitespace-pre-wrap break-words">{caption}</figcaption> : null}
      {viewing ? (
        <Suspense fallback={null}>
          <PictureViewer src={full} alt={caption || imageLabel} opener={link} onClosed={closed} />
        </Suspense>
      ) : null}
    </figure>
  );
}

