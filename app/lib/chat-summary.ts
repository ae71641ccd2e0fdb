import { imageSent } from "./messages/chat";

/** How much of a caption a summary quotes. */
export const SUMMARY_CAPTION_CHARS = 30;

/** The parts of a chat message a summary reads (a stored message, a live event, a push's or a digest's row). */
export interface SummarisedMessage {
  messageType: string;
  content: string;
  metadata?: { caption?: string | null } | null;
}

/**
 * A message in one line wherever it is summarised (the room list, the popup, pushes, mail digests; docs/product.md#chat):
 * text as it is; a picture as 「画像を送信しました」 and the start of its caption, never its upload id or a URL.
 * Each place cuts the line to its own length.
 */
export function messageSummary(message: SummarisedMessage): string {
  if (message.messageType !== "IMAGE") return message.content;
  const caption = Array.from((message.metadata?.caption ?? "").replace(/\s+/g, " ").trim());
  if (caption.length === 0) return imageSent;
  const start = caption.length > SUMMARY_CAPTION_CHARS ? `${caption.slice(0, SUMMARY_CAPTION_CHARS - 1).join("")}…` : caption.join("");
  return `${imageSent}：${start}`;
}
