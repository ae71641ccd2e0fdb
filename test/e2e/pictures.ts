import type { APIRequestContext, Page } from "@playwright/test";
import sharp from "sharp";
import { bearer, createUser, expect } from "./fixtures";

/** What the flows of pictures in chat share (ADR 069, ADR 070). */

/** An 800 × 600 PNG of one colour (`r` makes each one different). */
export const picture = (r: number) => sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g: 120, b: 200 } } }).png().toBuffer();

/** Two new members, わたし and ともだち, and the direct room between them, through the API. */
export async function directRoom(request: APIRequestContext) {
  const me = await createUser(request, "わたし");
  const friend = await createUser(request, "ともだち");
  const room = await request.post("/api/chat/rooms", { data: { participantIds: [friend.id], type: "DIRECT", name: null }, headers: bearer(me) });
  return { me, friend, roomId: (await room.json()).data.chatRoom.id as string };
}

/** The picture with this alt text (its caption) in the room's list, once loaded: its bytes came from /media. */
export async function shownPicture(page: Page, alt: string) {
  const image = page.getByRole("list", { name: "メッセージ一覧" }).getByRole("img", { name: alt });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return image;
}
