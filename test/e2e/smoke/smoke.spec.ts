import type { Page } from "@playwright/test";
import sharp from "sharp";
import { waitForHydration } from "../fixtures";
import { expect, leave, signIn, signUp, test } from "./people";

/**
 * The smoke set (`npm run test:smoke`): what a deployment must do for anyone, needing nothing but open
 * sign-up, so it runs against the suite's own server and against any deployment (E2E_BASE_URL). Two newcomers sign up;
 * one lists a ticket with a word no one else uses, the other finds it through explore, opens the seller's profile and
 * the ticket, and they chat (live both ways; without JavaScript the page shows the reply when reloaded); then a post
 * with an image, deleted again, the notifications, signing out everywhere, and both leave (退会). With JavaScript and
 * without it, on a phone (360 px) and a desktop (1280 px).
 */

const VIEWPORTS = [
  { name: "360 px", viewport: { width: 360, height: 640 } },
  { name: "1280 px", viewport: { width: 1280, height: 800 } },
];

/** A small PNG, as a file chooser hands it over. */
async function pngFile(name: string) {
  const buffer = await sharp({ create: { width: 320, height: 180, channels: 3, background: "#0ea5e9" } }).png().toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/** Waits for the realtime connection of a page with JavaScript (messages and notifications arrive over it). */
async function connected(page: Page) {
  await waitForHydration(page);
  await expect(page.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
}

for (const { name, viewport } of VIEWPORTS) {
  for (const javaScript of [true, false]) {
    test.describe(`${name}, ${javaScript ? "with JavaScript" : "without JavaScript"}`, { tag: "@smoke" }, () => {
      test.use({ viewport, javaScriptEnabled: javaScript });

      test("sign up → profile → explore → a profile → a ticket → chat → a post with an image → notifications → sign out everywhere → leave", async ({ page, browser, person }) => {
        // Two sign-ups, a dozen pages with an accessibility check each, and four browser contexts, on a busy machine too.
        test.setTimeout(300_000);
        const js = { javaScript };
        const me = person("A");
        const seller = person("B");
        const keyword = `スモーク${seller.displayName.slice(-6)}`;
        const title = `${keyword}の動作確認チケット`;
        // The other person always has JavaScript: the live messages are what their page checks.
        const sellerContext = await browser.newContext({ viewport, javaScriptEnabled: true, locale: "ja-JP", timezoneId: "Asia/Tokyo" });
        const sellerPage = await sellerContext.newPage();

        await test.step("both sign up and set up a profile", async () => {
          await signUp(page, me, js);
          await signUp(sellerPage, seller, { javaScript: true });
        });

        await test.step("the other person lists a ticket", async () => {
          await sellerPage.goto("/mypage/ticket-registration");
          await waitForHydration(sellerPage);
          // Whichever game the deployment offers first: the flow counts on no particular one.
          const game = sellerPage.getByLabel("ゲーム");
          const firstGame = await game.evaluate((select: HTMLSelectElement) => [...select.options].find((option) => option.value)?.value ?? null);
          expect(firstGame, "the deployment offers a game to list a ticket in").toBeTruthy();
          await game.selectOption(firstGame!);
          await sellerPage.getByLabel("タイトル").fill(title);
          await sellerPage.getByLabel("説明").fill("スモークテストの出品です。購入しないでください。");
          await sellerPage.getByRole("button", { name: "出品する" }).click();
          await expect(sellerPage).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
          await expect(sellerPage.getByRole("heading", { level: 1 })).toHaveText(title);
        });

        await test.step("explore with a keyword → the seller's profile → the ticket", async () => {
          await page.goto("/explore");
          if (javaScript) await waitForHydration(page);
          const search = page.getByRole("search", { name: "チケットの検索" });
          await search.getByLabel("キーワード").fill(keyword);
          await search.getByRole("button", { name: "検索", exact: true }).click();
          await expect(page).toHaveURL((url) => url.pathname === "/explore" && url.searchParams.get("q") === keyword);
          const results = page.getByRole("list", { name: "検索結果のチケット", exact: true });
          await expect(results.getByRole("listitem")).toHaveCount(1);
          await results.getByRole("link", { name: seller.displayName, exact: true }).click();
          await expect(page).toHaveURL(/\/u\/[0-9a-f-]{36}$/);
          await expect(page.getByRole("heading", { level: 1, name: seller.displayName })).toBeVisible();
          await page.getByRole("link", { name: title, exact: true }).click();
          await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
        });

        await test.step("chat with the seller, live both ways", async () => {
          await page.getByRole("main").getByRole("link", { name: seller.displayName, exact: true }).click();
          await expect(page).toHaveURL(/\/u\/[0-9a-f-]{36}$/);
          if (javaScript) await waitForHydration(page);
          await page.getByRole("link", { name: "チャットする" }).click();
          await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
          const roomPath = new URL(page.url()).pathname;
          const mine = page.getByRole("list", { name: "メッセージ一覧" });
          const theirs = sellerPage.getByRole("list", { name: "メッセージ一覧" });

          await sellerPage.goto(roomPath);
          await connected(sellerPage);
          if (javaScript) await connected(page);
          await page.getByLabel("メッセージ", { exact: true }).fill("こんにちは、チケットを見ました！");
          await page.getByRole("button", { name: "送信", exact: true }).click();
          await expect(mine).toContainText("こんにちは、チケットを見ました！");
          // Arrives on the seller's open page without a reload.
          await expect(theirs).toContainText("こんにちは、チケットを見ました！");

          await sellerPage.getByLabel("メッセージ", { exact: true }).fill("ありがとうございます、いつでもどうぞ");
          await sellerPage.getByRole("button", { name: "送信", exact: true }).click();
          await expect(theirs).toContainText("ありがとうございます、いつでもどうぞ");
          // Shown at once while it is being sent; stored once 「送信中…」 gives way to its time.
          await expect(theirs.getByText("送信中…")).toHaveCount(0);
          // Live with JavaScript; a page without it shows what arrived when it is loaded again.
          if (!javaScript) await page.reload();
          await expect(mine).toContainText("ありがとうございます、いつでもどうぞ");
        });

        await test.step("a post with an image, then deleted", async () => {
          const text = `${keyword}の投稿です`;
          await page.goto("/feed");
          if (javaScript) await waitForHydration(page);
          await page.getByRole("link", { name: "投稿する", exact: true }).click();
          // With JavaScript the dialog; without, its plain page.
          const form = javaScript ? page.getByRole("dialog", { name: "新しい投稿" }) : page.getByRole("main");
          if (!javaScript) await expect(page).toHaveURL("/posts/new");
          await form.getByLabel(/画像/).setInputFiles(await pngFile("smoke.png"));
          if (javaScript) await expect(form.getByTestId("post-image-preview")).toBeVisible();
          await form.getByLabel("投稿内容").fill(text);
          await form.getByRole("button", { name: "投稿する", exact: true }).click();
          await expect(page.getByTestId("toast").filter({ hasText: "投稿しました" })).toBeVisible();
          const post = page.getByTestId("post").filter({ hasText: text });
          await expect(post.getByRole("img", { name: `${me.displayName}さんの投稿画像` })).toBeVisible();

          // The author's own delete button (a confirmation first with JavaScript).
          page.once("dialog", (dialog) => void dialog.accept());
          await post.getByRole("button", { name: "削除" }).click();
          await expect(page.getByTestId("toast").filter({ hasText: "投稿を削除しました" })).toBeVisible();
          await expect(page.getByTestId("post").filter({ hasText: text })).toHaveCount(0);
        });

        await test.step("notifications: the seller was told of the chat; mine are marked read", async () => {
          await sellerPage.goto("/notifications");
          await expect(sellerPage.getByRole("list", { name: "通知一覧" })).toContainText(`${me.displayName}さんがチャットを始めました`);

          const bell = page.getByRole("banner").getByRole("link", { name: /通知/ });
          await bell.click();
          await expect(page).toHaveURL("/notifications");
          await expect(page.getByRole("list", { name: "通知一覧" })).toContainText("GamerMatchへようこそ！");
          if (javaScript) await waitForHydration(page);
          await page.getByRole("button", { name: "すべて既読にする" }).click();
          await expect(page.getByTestId("toast").filter({ hasText: "すべての通知を既読にしました" })).toBeVisible();
          await expect(page.getByTestId("unread-dot")).toHaveCount(0);
        });

        await test.step("sign out everywhere ends the other device's session too", async () => {
          const otherDevice = await browser.newContext({ viewport, javaScriptEnabled: javaScript, locale: "ja-JP", timezoneId: "Asia/Tokyo" });
          const otherPage = await otherDevice.newPage();
          await signIn(otherPage, me, "/mypage", js);

          await page.goto("/settings");
          if (javaScript) await waitForHydration(page);
          await page.getByRole("button", { name: "すべての端末からログアウト" }).click();
          await expect(page).toHaveURL("/");
          await page.goto("/settings");
          await expect(page).toHaveURL("/login?redirectTo=%2Fsettings");
          await otherPage.goto("/mypage");
          await expect(otherPage).toHaveURL("/login?redirectTo=%2Fmypage");
          await otherDevice.close();
        });

        await test.step("both leave the service (退会), the ticket with them", async () => {
          await signIn(page, me, "/settings/account", js);
          await leave(page, me, js);
          await leave(sellerPage, seller, { javaScript: true });
          // The seller's ticket is no longer found.
          await page.goto(`/explore?${new URLSearchParams({ q: keyword })}`);
          await expect(page.getByRole("list", { name: "検索結果のチケット", exact: true })).toHaveCount(0);
        });

        await sellerContext.close();
      });
    });
  }
}
