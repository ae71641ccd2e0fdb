import type { APIRequestContext } from "@playwright/test";
import sharp from "sharp";
import { axeViolations, bearer, createUser, expect, login, test, waitForHydration } from "./fixtures";
import { atDesktop, matrix } from "./matrix";
import { directRoom, picture, shownPicture } from "./pictures";

/**
 * Pictures in the room (ADR 070): the friend hears of one live (the popup says 「画像を送信しました：…」), the
 * thumbnail has its box and its placeholder colour before it loads, the full-screen viewer opens on a click and closes
 * with Esc, its button and the back button, focus back on the thumbnail; without JavaScript the thumbnail links to the
 * picture. axe passes on the room with a picture and with the viewer open. An upload on a slow connection shows its
 * progress moving and can be cancelled.
 */

type Member = Awaited<ReturnType<typeof createUser>>;

/** `me` sends a picture with this caption through the API (upload, then the message). */
async function sendPicture(request: APIRequestContext, me: Member, roomId: string, caption: string) {
  const upload = await request.post("/api/uploads", { multipart: { type: "chat", file: { name: "shot.png", mimeType: "image/png", buffer: await picture(60) } }, headers: bearer(me) });
  expect(upload.status()).toBe(201);
  const { id } = (await upload.json()).data;
  const sent = await request.post("/api/chat/messages", { data: { roomId, messageType: "IMAGE", content: id, metadata: { caption } }, headers: bearer(me) });
  expect(sent.status()).toBe(201);
  return id as string;
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  test.describe(`${viewport.width} px`, matrix(atDesktop(viewport)), () => {
    test.use({ viewport });

    test.describe("without JavaScript", () => {
      test.use({ javaScriptEnabled: false });

      test("the thumbnail has its size and placeholder colour and links to the full picture; axe passes", async ({ page, request }) => {
        const { me, friend, roomId } = await directRoom(request);
        const uploadId = await sendPicture(request, me, roomId, "JSなしで見る");
        await login(page, friend.email, `/chat/${roomId}`);
        const image = await shownPicture(page, "JSなしで見る");
        await expect(image).toHaveAttribute("width", "288");
        await expect(image).toHaveAttribute("height", "216");
        await expect(page.getByTestId("chat-picture-placeholder").locator("rect")).toHaveAttribute("fill", /^#[0-9a-f]{6}$/);
        expect(await axeViolations(page, { javaScriptEnabled: false })).toEqual([]);
        const link = page.getByTestId("chat-picture");
        await expect(link).toHaveAttribute("href", `/media/${uploadId}`);
        const full = await page.request.get(`/media/${uploadId}`);
        expect(full.status()).toBe(200);
        expect(full.headers()["content-type"]).toBe("image/png");
      });
    });

    test("with JavaScript: the friend's popup says 「画像を送信しました」; the viewer opens, closes with Esc, the back button and its button, focus back; axe passes", async ({ page, request }) => {
      const { me, friend, roomId } = await directRoom(request);
      await login(page, friend.email, "/feed");
      await waitForHydration(page);
      await expect(page.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
      await sendPicture(request, me, roomId, "見てこれ");
      await expect(page.getByRole("status").filter({ hasText: "画像を送信しました：見てこれ" })).toBeVisible();

      await page.goto(`/chat/${roomId}`);
      await waitForHydration(page);
      const thumbnail = await shownPicture(page, "見てこれ");
      expect(await axeViolations(page)).toEqual([]);
      const link = page.getByTestId("chat-picture");
      const viewer = page.getByTestId("picture-viewer");

      // Opened with a click: the full picture, fitted to the screen; Esc closes it and the thumbnail has the focus.
      await thumbnail.click();
      await expect(viewer).toBeVisible();
      await expect(viewer.getByRole("img", { name: "見てこれ" })).toBeVisible();
      await expect(viewer.getByRole("button", { name: "閉じる" })).toBeFocused();
      const box = await viewer.boundingBox();
      expect(box!.width).toBeGreaterThanOrEqual(viewport.width - 1);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await expect(viewer).toHaveCount(0);
      await expect(link).toBeFocused();
      await expect(page).toHaveURL(`/chat/${roomId}`);

      // From the keyboard, then the back button: it closes the viewer, the room stays.
      await page.keyboard.press("Enter");
      await expect(viewer).toBeVisible();
      await page.goBack();
      await expect(viewer).toHaveCount(0);
      await expect(page).toHaveURL(`/chat/${roomId}`);
      await expect(link).toBeFocused();
      await shownPicture(page, "見てこれ");

      // Its close button.
      await link.click();
      await viewer.getByRole("button", { name: "閉じる" }).click();
      await expect(viewer).toHaveCount(0);
      await expect(link).toBeFocused();
      await expect(page).toHaveURL(`/chat/${roomId}`);
    });

    test("with JavaScript on a slow connection: the upload's progress bar moves, and cancel stops it and stores nothing", async ({ page, request }) => {
      const { me, roomId } = await directRoom(request);
      await login(page, me.email, `/chat/${roomId}`);
      await waitForHydration(page);
      // About 500 kB of noise (PNG cannot shrink it), sent at 64 kB/s: several seconds of progress.
      const noise = Buffer.alloc(400 * 400 * 3);
      for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
      const big = await sharp(noise, { raw: { width: 400, height: 400, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 50, downloadThroughput: -1, uploadThroughput: 64 * 1024 });

      await page.getByLabel(/画像を添付/).setInputFiles({ name: "big.png", mimeType: "image/png", buffer: big });
      await expect(page.getByTestId("chosen-picture")).toBeVisible();
      // Focused first, as a person's typing is (on a phone it also hides the bottom navigation, moving the send button).
      await page.getByLabel("メッセージ", { exact: true }).fill("ゆっくり送る");
      await page.getByRole("button", { name: "送信" }).click();
      const bar = page.getByTestId("pending-picture").getByRole("progressbar", { name: "画像のアップロード" });
      await expect(bar).toBeVisible();
      const seen = new Set<number>();
      await expect
        .poll(
          async () => {
            const value = await bar.evaluate((element: HTMLProgressElement) => element.value);
            if (value > 0 && value < 1) seen.add(Math.round(value * 100));
            return seen.size;
          },
          { timeout: 15_000, intervals: [250] },
        )
        .toBeGreaterThanOrEqual(2);
      await page.getByTestId("pending-picture").getByRole("button", { name: "キャンセル" }).click();
      await expect(page.getByTestId("pending-picture")).toHaveCount(0);
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const stored = await request.get(`/api/chat/messages?roomId=${roomId}`, { headers: bearer(me) });
      expect((await stored.json()).data.messages).toEqual([]);
    });
  });
}
