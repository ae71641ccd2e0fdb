import { describe, expect, it } from "vitest";
import { chatRoomOf, shouldShowChatPopup, bookingReloads, type ChatMessageEvent } from "~/lib/chat-rules";

const message = (overrides: Partial<ChatMessageEvent> = {}): ChatMessageEvent => ({
  id: 1,
  chatRoomId: "room-a",
  messageType: "TEXT",
  content: "やあ",
  metadata: null,
  sender: { uid: "friend", displayName: "友達", avatar: null },
  ...overrides,
});

describe("chat popups (docs/product.md#screens): route × room × sender", () => {
  it.each([
    ["/", "room-a", "friend", true],
    ["/support", "room-a", "friend", true],
    ["/mypage/gamer-edit", "room-a", "friend", true],
    ["/chat", "room-a", "friend", false],
    ["/chat/room-a", "room-a", "friend", false],
    ["/chat/room-b", "room-a", "friend", true],
    ["/chat/room-b/", "room-a", "friend", true],
    ["/", "room-a", "me", false],
    ["/chat/room-b", "room-a", "me", false],
    ["/chatter", "room-a", "friend", true],
  ])("on %s, a message of %s from %s → %s", (pathname, room, sender, shown) => {
    expect(
      shouldShowChatPopup({ pathname, message: message({ chatRoomId: room, sender: { uid: sender, displayName: "x", avatar: null } }), userId: "me" }),
    ).toBe(shown);
  });

  it("reads the room of a chat route", () => {
    expect(chatRoomOf("/chat/abc")).toBe("abc");
    expect(chatRoomOf("/chat")).toBeNull();
    expect(chatRoomOf("/chat/abc/extra")).toBeNull();
  });
});

describe("booking notices (docs/product.md#states)", () => {
  it("reload bookings; a cancellation where I am the buyer also refreshes the balance", () => {
    expect(bookingReloads(message({ messageType: "TEXT" }), "me")).toBeNull();
    expect(bookingReloads(message({ messageType: "ticket_purchased", metadata: { buyerId: "me" } }), "me")).toEqual({ bookings: true, balance: false });
    expect(bookingReloads(message({ messageType: "ticket_cancelled", metadata: { buyerId: "me" } }), "me")).toEqual({ bookings: true, balance: true });
    expect(bookingReloads(message({ messageType: "ticket_cancelled", metadata: { buyerId: "someone" } }), "me")).toEqual({ bookings: true, balance: false });
  });
});
