import type { Browser } from "@playwright/test";
import { expect, login, test, waitForHydration } from "./fixtures";
import { atDesktop, matrix } from "./matrix";
import { directRoom, picture, shownPicture } from "./pictures";

/**
 * Pictures in chat (docs/product.md#chat, ADR 069): sent from the room's form without JavaScript and with it, at a
 * phone's width and a desktop's; the other member sees the picture (served by /media to members only).
 */

/** The friend's own browser, with JavaScript, in the room. */
async function friendInRoom(browser: Browser, email: string, roomId: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, javaScriptEnabled: true });
  const page = await context.newPage();
  await login(page, email, `/chat/${roomId}`);
  await waitForHydration(page);
  await expect(page.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
  return { page, close: () => context.close() };
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  // The desktop's runs repeat the phone's (@matrix, `npm test -- --all`'s: ADR 067).
  test.describe(`${viewport.width} px`, matrix(atDesktop(viewport)), () => {
    test.use({ viewport });

    test.describe("without JavaScript", () => {
      test.use({ javaScriptEnabled: false });

      test("a picture and its caption go with the room's plain form; the friend sees it", async ({ page, request, browser }) => {
        const { me, friend, roomId } = await directRoom(request);
        await login(page, me.email, `/chat/${roomId}`);
        await page.getByLabel("メッセージ", { exact: true }).fill("JSなしのスクショ");
        await page.getByLabel(/画像を添付/).setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: await picture(30) });
        await page.getByRole("button", { name: "送信" }).click();
        await expect(page).toHaveURL(`/chat/${roomId}`);
        const image = await shownPicture(page, "JSなしのスクショ");
        await expect(image).toHaveAttribute("srcset", /\/small 480w, .* 800w$/);
        await expect(page.getByRole("list", { name: "メッセージ一覧" })).toContainText("JSなしのスクショ");

        const other = await friendInRoom(browser, friend.email, roomId, viewport);
        await shownPicture(other.page, "JSなしのスクショ");
        await other.close();
      });
    });

    test("with JavaScript: picked, previewed, uploaded with a progress bar, and seen live by the friend", async ({ page, request, browser }) => {
      const { me, friend, roomId } = await directRoom(request);
      const other = await friendInRoom(browser, friend.email, roomId, viewport);
      await login(page, me.email, `/chat/${roomId}`);
      await waitForHydration(page);
      await expect(page.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");

      // The upload is held until the progress bar has been seen.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/uploads", async (route) => {
        await held;
        await route.continue();
      });
      await page.getByLabel(/画像を添付/).setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: await picture(90) });
      await expect(page.getByTestId("chosen-picture").getByRole("img", { name: "選んだ画像" })).toBeVisible();
      await page.getByLabel("メッセージ", { exact: true }).fill("JSありのスクショ");
      await page.getByRole("button", { name: "送信" }).click();
      const pending = page.getByTestId("pending-picture");
      await expect(pending.getByRole("progressbar", { name: "画像のアップロード" })).toBeVisible();
      await expect(page.getByTestId("chosen-picture")).toHaveCount(0);
      release();

      await shownPicture(page, "JSありのスクショ");
      await expect(pending).toHaveCount(0);
      await shownPicture(other.page, "JSありのスクショ");
      await other.close();
    });

    test("with JavaScript: a pasted picture is chosen, and an upload cancelled stores nothing", async ({ page, request }) => {
      const { me, roomId } = await directRoom(request);
      await login(page, me.email, `/chat/${roomId}`);
      await waitForHydration(page);
      const bytes = [...(await picture(150))];
      // Ctrl+V in the message field: focused first, as a person's paste is (on a phone the composer's focus also
      // hides the bottom navigation, moving the send button).
      await page.getByLabel("メッセージ", { exact: true }).focus();
      await page.getByLabel("メッセージ", { exact: true }).evaluate((textarea, data) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(data)], "pasted.png", { type: "image/png" }));
        textarea.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
      }, bytes);
      await expect(page.getByTestId("chosen-picture")).toBeVisible();

      await page.route("**/api/uploads", () => new Promise(() => {})); // never answered: the person gives up
      await page.getByRole("button", { name: "送信" }).click();
      const pending = page.getByTestId("pending-picture");
      await pending.getByRole("button", { name: "キャンセル" }).click();
      await expect(pending).toHaveCount(0);
      await page.unrouteAll({ behavior: "ignoreErrors" });
      const stored = await request.get(`/api/chat/messages?roomId=${roomId}`, { headers: { Authorization: `Bearer ${me.token}` } });
      expect((await stored.json()).data.messages).toEqual([]);
    });
  });
}
