// ./scenes' `test` (plain Playwright): these tests make hundreds of navigations whose pages page-sweep.spec.ts
// already checks with axe-core at the same width.
import fs from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { signInContext } from "../support/first-load.mjs";
import { bearer, createUser, E2E_PASSWORD, local, NEEDS } from "./fixtures";
import { matrix } from "./matrix";
import { bar, BAR, checkBar, chunks, menu, menuButton } from "./page-checks";
import { fillPath, makeScene, SCREEN_PAGES, test } from "./scenes";

/**
 * Phones first: on a 360×640 screen every page of docs/product.md#screens fits the width, and the bar at the bottom reaches
 * さがす, チケット, チャット and マイページ from each (a visitor's bar さがす, フィード and ログイン, the menu チケット), with
 * JavaScript (page-sweep.spec.ts, in the same visit as each page's other checks) and without it (here); the header's
 * menu reaches every other section; the bar covers nothing and steps aside while typing in a chat room, whose composer
 * stays above the on-screen keyboard; every page's primary action is thumb-sized.
 */

const PHONE = { width: 360, height: 640 };
test.use({ viewport: PHONE, hasTouch: true });

const MEMBER_MENU = [
  { label: "フィード", path: "/feed" },
  { label: "ゲーム", path: "/games" },
  { label: "イベント", path: "/events" },
  { label: "コイン", path: "/coins" },
  { label: "設定", path: "/settings" },
  { label: "サポート", path: "/support" },
];
const VISITOR_MENU = [
  { label: "チケット", path: "/tickets" },
  { label: "ゲーム", path: "/games" },
  { label: "イベント", path: "/events" },
  { label: "コイン", path: "/coins" },
  { label: "サポート", path: "/support" },
];

/** Opens `path` and waits until the page is usable: hydrated with JavaScript, loaded without. */
async function open(page: Page, path: string, javaScript: boolean) {
  const response = await page.goto(path);
  expect(response?.status(), `${path} answers`).toBe(200);
  if (javaScript) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

for (const javaScript of [true, false]) {
  const mode = javaScript ? "with JavaScript" : "without JavaScript";

  test.describe(mode, () => {
    test.use({ javaScriptEnabled: javaScript });

    for (const member of [true, false]) {
      const state = member ? "signedIn" : "signedOut";
      const pages = SCREEN_PAGES.filter((entry) => (member ? entry.signedIn : entry.signedOut)).map((entry) => entry.path);
      // With JavaScript the bar is checked in page-sweep.spec.ts's one visit per page. Without it the sweep is a repeat
      // (@matrix, CI's): the bar is the same links, followed by the browser instead of the router.
      if (!javaScript) {
        for (const group of chunks(pages, 12)) {
          test(`${member ? "signed in" : "signed out"}, the bar reaches ${BAR[state].map((d) => d.label).join(", ")} from ${group.join(" ")}`, matrix(true, local(NEEDS.testPayments, NEEDS.demoData)), async ({ page, context, baseURL, scene }) => {
            test.setTimeout(90_000);
            if (member) await signInContext(context, baseURL, scene.member);
            for (const [index, pattern] of group.entries()) {
              const from = fillPath(pattern, scene.ids);
              await open(page, from, javaScript);
              expect(await page.evaluate(() => document.documentElement.scrollWidth), `${from} scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
              await checkBar(page, state, from, index);
            }
          });
        }
      }

      test(`${member ? "signed in" : "signed out"}, every entry of the header's menu is reached in two taps`, local(NEEDS.testPayments, NEEDS.demoData), async ({ page, context, baseURL, scene }) => {
        if (member) await signInContext(context, baseURL, scene.member);
        const from = `/chat/${scene.ids.roomId}`;
        for (const entry of member ? MEMBER_MENU : VISITOR_MENU) {
          await open(page, member ? from : "/explore", javaScript);
          await expect(menu(page)).toBeHidden();
          await menuButton(page).click();
          await menu(page).getByRole("link", { name: entry.label }).click();
          await expect(page).toHaveURL((url) => url.pathname === entry.path);
          await expect(menu(page), "the menu is closed on the new page").toBeHidden();
        }
        if (member) {
          await open(page, from, javaScript);
          await menuButton(page).click();
          await menu(page).getByRole("button", { name: "ログアウト" }).click();
          await expect(page).toHaveURL((url) => url.pathname === "/");
          await expect(bar(page).getByRole("link", { name: "ログイン" })).toBeVisible();
        }
      });
    }

    test("the bar covers nothing: the end of a long page scrolls clear of it", async ({ page }) => {
      await open(page, "/terms", javaScript);
      await page.mouse.wheel(0, 100_000);
      const last = page.getByRole("contentinfo").getByText("© GamerMatch");
      await last.scrollIntoViewIfNeeded();
      const barTop = (await bar(page).boundingBox())!.y;
      const lastBox = (await last.boundingBox())!;
      expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(barTop);
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("in a chat room 送信 takes the tap, typing or not: the bar stays where it is", local(NEEDS.testPayments, NEEDS.demoData), async ({ page, context, baseURL, scene }) => {
    await signInContext(context, baseURL, scene.member);
    const textbox = page.getByRole("textbox", { name: "メッセージ" });
    const send = page.getByRole("button", { name: "送信", exact: true });
    // The scene's room is the other flows' too: this run's own words, so a message of theirs cannot stand for one of these.
    const run = crypto.randomUUID().slice(0, 8);
    for (const [content, blur] of [
      [`入力中に送信をタップ ${run}`, false],
      [`入力欄の外から送信をタップ ${run}`, true],
    ] as const) {
      await open(page, `/chat/${scene.ids.roomId}`, false);
      await textbox.fill(content);
      if (blur) await textbox.blur();
      await expect(bar(page)).toBeVisible();
      await send.tap();
      await expect(page.getByRole("list", { name: "メッセージ一覧" })).toContainText(content);
    }
  });
});

test.describe("with JavaScript", () => {
  test("the menu closes with Escape, a tap outside it, and a navigation", async ({ page }) => {
    await open(page, "/explore", true);
    await menuButton(page).click();
    await expect(menu(page)).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu(page)).toBeHidden();
    await expect(menuButton(page)).toBeFocused();

    await menuButton(page).click();
    // Left of the menu, which covers the right of the page.
    await page.mouse.click(10, PHONE.height / 2);
    await expect(menu(page)).toBeHidden();

    await menuButton(page).click();
    await bar(page).getByRole("link", { name: "フィード" }).click();
    await expect(page).toHaveURL(/\/feed$/);
    await expect(menu(page)).toBeHidden();
  });

  test("in a chat room the screen is the conversation: the bar steps aside while typing, the composer stays above the keyboard", local(NEEDS.testPayments, NEEDS.demoData), async ({ page, context, baseURL, scene }) => {
    await signInContext(context, baseURL, scene.member);
    await open(page, `/chat/${scene.ids.roomId}`, true);
    const composer = page.locator("form[data-composer]");
    const textbox = page.getByRole("textbox", { name: "メッセージ" });
    // Filled: from under the header to the bar, with no page scroll.
    const barBox = (await bar(page).boundingBox())!;
    const composerBox = (await composer.boundingBox())!;
    expect(Math.abs(composerBox.y + composerBox.height - barBox.y)).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(PHONE.height);

    await textbox.click();
    await expect(bar(page)).toBeHidden();
    const typing = (await composer.boundingBox())!;
    expect(Math.abs(typing.y + typing.height - PHONE.height)).toBeLessThanOrEqual(1);

    // The on-screen keyboard: the browser shrinks the visual viewport (to 300 px here) and says so.
    await page.evaluate(() => {
      const viewport = window.visualViewport!;
      Object.defineProperty(viewport, "height", { configurable: true, get: () => 300 });
      viewport.dispatchEvent(new Event("resize"));
    });
    await expect.poll(async () => (await composer.boundingBox())!.y + (await composer.boundingBox())!.height).toBeLessThanOrEqual(300);
    await expect(textbox).toBeFocused();
    await expect(page.getByRole("list", { name: "メッセージ一覧" }).getByRole("listitem").last()).toBeInViewport();

    await page.evaluate(() => {
      const viewport = window.visualViewport!;
      delete (viewport as unknown as { height?: number }).height;
      viewport.dispatchEvent(new Event("resize"));
    });
    await textbox.blur();
    await expect(bar(page)).toBeVisible();

    // 送信 tapped while typing, and again after the keyboard went away: the bar neither steps back nor aside under the
    // finger (a focus moving to the button between its down and up moved the button, and the tap was lost).
    // The scene's room is the other flows' too: this run's own words, so a message of theirs cannot stand for one of these.
    const run = crypto.randomUUID().slice(0, 8);
    const messages = page.getByRole("list", { name: "メッセージ一覧" });
    const send = page.getByRole("button", { name: "送信", exact: true });
    await textbox.fill(`入力中に送信をタップ ${run}`);
    await send.tap();
    await expect(messages).toContainText(`入力中に送信をタップ ${run}`);
    await expect(textbox, "the keyboard stays up after sending").toBeFocused();
    await textbox.fill(`キーボードを閉じてから送信 ${run}`);
    await textbox.blur();
    await expect(bar(page)).toBeVisible();
    await send.tap();
    await expect(messages).toContainText(`キーボードを閉じてから送信 ${run}`);
    await expect(bar(page), "the bar stayed").toBeVisible();
  });

  test("every page's primary action (book, buy, send, post, review) is at least 44 px tall", local(NEEDS.testPayments, NEEDS.demoData), async ({ page, context, baseURL, scene, request }) => {
    const review = await completedBooking(request);
    await signInContext(context, baseURL, { email: review.buyer.email, password: E2E_PASSWORD });
    const expectThumbSized = async (name: RegExp) => {
      const box = await page.getByRole("button", { name }).boundingBox();
      expect(box, `${name} on ${page.url()}`).not.toBeNull();
      expect(box!.height, `${name} on ${page.url()}`).toBeGreaterThanOrEqual(44);
    };
    // Booking: the ticket's page, then (with its suggested start time) the confirmation's.
    await open(page, `/tickets/${scene.ids.listingId}`, true);
    await expectThumbSized(/購入内容を確認する/);
    await page.getByRole("button", { name: /購入内容を確認する/ }).click();
    await expect(page).toHaveURL(/\/confirm\?/);
    await expectThumbSized(/コインで購入する/);
    for (const [path, name] of [
      ["/coins/checkout/1", /購入する|支払う/],
      [`/chat/${review.roomId}`, /^送信$/],
      ["/posts/new", /投稿する/],
      [`/settings/ticket-management/${review.bookingId}/review`, /レビューを送信する/],
    ] as const) {
      await open(page, path, true);
      await expectThumbSized(name);
    }
  });

  test("the coin, post and review dialogs fit the screen, their actions in reach", local(NEEDS.testPayments, NEEDS.demoData), async ({ page, context, baseURL, request }) => {
    const review = await completedBooking(request);
    await signInContext(context, baseURL, { email: review.buyer.email, password: E2E_PASSWORD });
    const dialogs: [string, (page: Page) => Promise<void>, string, Parameters<Page["getByRole"]>][] = [
      ["/", (page) => page.getByRole("banner").getByRole("link", { name: /コインを購入/ }).click(), "コインを購入", ["link", { name: /^1,000コイン/ }]],
      ["/feed", (page) => page.getByRole("link", { name: "投稿する", exact: true }).click(), "新しい投稿", ["button", { name: "投稿する", exact: true }]],
      ["/settings/ticket-management", (page) => page.getByRole("link", { name: /さんのレビューを書く$/ }).click(), "レビューを書く", ["button", { name: "レビューを送信する" }]],
    ];
    for (const [path, opener, name, action] of dialogs) {
      await open(page, path, true);
      await opener(page);
      const dialog = page.getByRole("dialog", { name });
      await expect(dialog).toBeVisible();
      const box = (await dialog.boundingBox())!;
      expect(box.x, `${name}: left edge`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name}: right edge`).toBeLessThanOrEqual(PHONE.width);
      expect(box.y + box.height, `${name}: bottom edge`).toBeLessThanOrEqual(PHONE.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(PHONE.width);
      const button = dialog.getByRole(...action);
      await button.scrollIntoViewIfNeeded();
      await expect(button).toBeInViewport();
      expect((await button.boundingBox())!.height, `${name}'s action`).toBeGreaterThanOrEqual(44);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    }
  });

  test("the README's phone screenshots: home and a chat room, signed in", local(NEEDS.testPayments, NEEDS.demoData), async ({ browser, request, baseURL }) => {
    // Its own scene, with names and words a person would see.
    const scene = await makeScene(request, {
      seller: "そら",
      member: "みなと",
      title: "VALORANT エイム練習に付き合います",
      messages: [
        ["seller", "はじめまして！ランク上げを手伝ってもらえませんか？"],
        ["member", "もちろんです。今夜21時からどうですか？"],
        ["seller", "ありがとうございます！よろしくお願いします"],
      ],
    });
    const context = await browser.newContext({ baseURL, viewport: PHONE, deviceScaleFactor: 2, hasTouch: true, isMobile: true, locale: "ja-JP", timezoneId: "Asia/Tokyo" });
    await signInContext(context, baseURL, scene.member);
    const page = await context.newPage();
    // Written where the run's reports go; UPDATE_SCREENSHOTS=1 writes the README's own copies in docs/screenshots.
    const directory = process.env.UPDATE_SCREENSHOTS ? path.resolve("docs/screenshots") : path.resolve(".test-reports/screenshots");
    fs.mkdirSync(directory, { recursive: true });
    for (const [name, address] of [
      ["phone-home.png", "/"],
      ["phone-chat.png", `/chat/${scene.ids.roomId}`],
    ]) {
      await open(page, address!, true);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(directory, name!) });
      expect(fs.statSync(path.join(directory, name!)).size).toBeGreaterThan(10_000);
    }
    await context.close();
  });
});

/** A booking the buyer can review (accepted, started, completed), and their chat room with the seller. */
async function completedBooking(request: APIRequestContext) {
  const seller = await createUser(request, "大きなボタンの販売者");
  const buyer = await createUser(request, "大きなボタンの購入者");
  expect((await request.post("/api/coins/orders", { data: { packageId: 2 }, headers: bearer(buyer, crypto.randomUUID()) })).status()).toBe(201);
  const listing = await request.post("/api/listings", { data: { title: "大きなボタンの確認", gameSlug: "apex-legends", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 2 }, headers: bearer(seller) });
  const listingId = (await listing.json()).data.listing.id as string;
  const booked = await request.post(`/api/listings/${listingId}/purchase`, { data: { units: 1, desiredStartTime: Date.now() + 60_000 }, headers: bearer(buyer, crypto.randomUUID()) });
  const bookingId = (await booked.json()).data.ticket.id as string;
  for (const [user, action] of [[seller, "accept"], [seller, "start"], [buyer, "complete"]] as const) {
    expect((await request.post(`/api/tickets/${bookingId}/${action}`, { data: {}, headers: bearer(user) })).status()).toBe(200);
  }
  const room = await request.post("/api/chat/rooms", { data: { participantIds: [seller.id], type: "DIRECT", name: null }, headers: bearer(buyer) });
  return { buyer, bookingId, roomId: (await room.json()).data.chatRoom.id as string };
}
