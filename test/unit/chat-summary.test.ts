import { describe, expect, it } from "vitest";
import { messageSummary } from "~/lib/chat-summary";
import { sendMessageSchema } from "~/lib/validation/chat";
import { digestMail } from "~/models/chat-digest.server";
import { pushPayloadOf } from "~/models/push-outbox.server";
import { thumbnailSize } from "~/routes/_chat.chat.$roomId/chat-picture";

const UPLOAD_ID = "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11";
const ROOM_ID = "0b7e2a10-98c3-4c38-9a8d-3f1f5b2c7d44";

describe("a message summarised (docs/product.md#chat): a picture says 「画像を送信しました」 and its caption's start, never its id", () => {
  it.each([
    ["text as it is", { messageType: "TEXT", content: "やあ" }, "やあ"],
    ["a picture without a caption", { messageType: "IMAGE", content: UPLOAD_ID, metadata: null }, "画像を送信しました"],
    ["an empty caption", { messageType: "IMAGE", content: UPLOAD_ID, metadata: { caption: "  \n " } }, "画像を送信しました"],
    ["a caption, one line", { messageType: "IMAGE", content: UPLOAD_ID, metadata: { caption: " ランク\n上がった！ " } }, "画像を送信しました：ランク 上がった！"],
    ["a long caption, cut at 30 characters", { messageType: "IMAGE", content: UPLOAD_ID, metadata: { caption: "あ".repeat(31) } }, `画像を送信しました：${"あ".repeat(29)}…`],
    ["emoji counted whole", { messageType: "IMAGE", content: UPLOAD_ID, metadata: { caption: "🎮".repeat(30) } }, `画像を送信しました：${"🎮".repeat(30)}`],
  ])("%s", (_, message, summary) => {
    expect(messageSummary(message)).toBe(summary);
    expect(messageSummary(message)).not.toContain(UPLOAD_ID);
  });

  it("a chat push of a picture: the summary as its body, cut to the push's length", () => {
    const push = (data: Record<string, unknown>) => pushPayloadOf({ kind: "chat", data: { roomId: ROOM_ID, roomType: "DIRECT", sender: "そら", ...data } });
    expect(push({ image: true, text: "" }).body).toBe("画像を送信しました");
    expect(push({ image: true, text: "見て" }).body).toBe("画像を送信しました：見て");
    expect(push({ image: false, text: "やあ" }).body).toBe("やあ");
  });

  it("a mail digest quotes a picture by its summary", () => {
    const mail = digestMail({
      user_id: "u",
      room_id: ROOM_ID,
      email: "a@example.jp",
      room_type: "DIRECT",
      room_name: null,
      unread: 2,
      senders: 1,
      last_message_id: "2",
      quotes: [
        { sender: "そら", content: UPLOAD_ID, messageType: "IMAGE", metadata: { caption: "リザルト画面" }, at: "2026-11-29T12:00:00Z" },
        { sender: "そら", content: "どう？", messageType: "TEXT", metadata: null, at: "2026-11-29T12:01:00Z" },
      ],
    } as Parameters<typeof digestMail>[0]);
    expect(String(mail.data?.body)).toContain("画像を送信しました：リザルト画面");
    expect(String(mail.data?.body)).toContain("どう？");
    expect(String(mail.data?.body)).not.toContain(UPLOAD_ID);
  });
});

describe("an image message's schema", () => {
  const roomId = ROOM_ID;
  it("takes an upload id (lower-cased) and a trimmed caption of at most 500; an empty caption is none", () => {
    expect(sendMessageSchema.parse({ roomId, messageType: "IMAGE", content: UPLOAD_ID.toUpperCase(), metadata: { caption: "  見て  " } })).toMatchObject({
      messageType: "IMAGE",
      content: UPLOAD_ID,
      metadata: { caption: "見て" },
    });
    expect(sendMessageSchema.parse({ roomId, messageType: "IMAGE", content: UPLOAD_ID, metadata: { caption: " " } }).metadata).toBeNull();
    expect(sendMessageSchema.safeParse({ roomId, messageType: "IMAGE", content: UPLOAD_ID, metadata: { caption: "あ".repeat(500) } }).success).toBe(true);
    expect(sendMessageSchema.safeParse({ roomId, messageType: "IMAGE", content: UPLOAD_ID, metadata: { caption: "あ".repeat(501) } }).error?.flatten().fieldErrors).toEqual({
      metadata: ["500文字以内で入力してください"],
    });
  });

  it("refuses a content that is no upload id, and a type people do not send; a text keeps no caption", () => {
    for (const content of [undefined, "", "画像", 1]) {
      expect(sendMessageSchema.safeParse({ roomId, messageType: "IMAGE", content }).error?.flatten().fieldErrors).toEqual({ content: ["画像を選択してください"] });
    }
    expect(sendMessageSchema.safeParse({ roomId, messageType: "SYSTEM", content: "x" }).success).toBe(false);
    expect(sendMessageSchema.parse({ roomId, content: "やあ", metadata: { caption: "なにか" } })).toMatchObject({ messageType: "TEXT", content: "やあ", metadata: null });
  });
});

describe("a thumbnail's box", () => {
  it.each([
    [{ width: 1200, height: 900 }, { width: 288, height: 216 }],
    [{ width: 819, height: 2048 }, { width: 115, height: 288 }],
    [{ width: 100, height: 50 }, { width: 100, height: 50 }],
    [{ width: 4000, height: 1 }, { width: 288, height: 1 }],
  ])("%o → %o (never enlarged, ratio kept)", (size, box) => {
    expect(thumbnailSize(size)).toEqual(box);
  });
});
