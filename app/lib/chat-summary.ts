/**
 * An image message wherever it is summarised, never its URL or upload id. Worded here rather than in ./messages/chat.ts:
 * the popup (on every member's page) imports this module, and importing that one would split the room page's chat
 * messages into a chunk of their own on every page's first load.
 */
export const IMAGE_SENT = "画像を送信しました";

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
  if (caption.length === 0) return IMAGE_SENT;
  const start = caption.length > SUMMARY_CAPTION_CHARS ? `${caption.slice(0, SUMMARY_CAPTION_CHARS - 1).join("")}…` : caption.join("");
  return `${IMAGE_SENT}：${start}`;
}
