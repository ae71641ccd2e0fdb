import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { createUser, expect, local, NEEDS, test } from "./fixtures";

/**
 * Results before filters on a phone: at 360×640, `/explore` and `/tickets` show the keyword box (explore),
 * a 「絞り込み（n）」 toggle and the results, the first result card whole on the first screen; the other filters open in
 * a panel (a <details>), with JavaScript and without it, and a search sent from it changes the results and the count.
 */

const PHONE = { width: 360, height: 640 };
test.use({ viewport: PHONE, hasTouch: true });

/** Two games the other specs do not filter on, so the listings made here are told apart by game. */
const GAMES = {
  first: { slug: "street-fighter-6", name: "ストリートファイター6" },
  second: { slug: "pokemon-unite", name: "ポケモンユナイト" },
};

/** A seller with two listings, one per game of GAMES (60 and 30 minutes), each title carrying the same random word. */
async function sellerWithTwoListings(request: APIRequestContext) {
  const word = `pf${Math.random().toString(16).slice(2, 10)}`;
  const seller = await createUser(request, `絞り込み確認${word}`);
  const titles = { first: `格ゲー練習 ${word}`, second: `ユナイト周回 ${word}` };
  for (const [key, minutes] of [
    ["first", 60],
    ["second", 30],
  ] as const) {
    const listing = await request.post("/api/listings", {
      data: { title: titles[key], gameSlug: GAMES[key].slug, pricePerUnit: 300, minutesPerUnit: minutes, maxUnits: 2 },
      headers: { Authorization: `Bearer ${seller.token}` },
    });
    expect(listing.status()).toBe(201);
  }
  return { seller, word, titles };
}

/** Opens `path` and waits until the page is usable: hydrated with JavaScript, loaded without. */
async function open(page: Page, path: string, javaScript: boolean) {
  const response = await page.goto(path);
  expect(response?.status(), `${path} answers`).toBe(200);
  if (javaScript) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

const toggle = (page: Page) => page.locator("main summary").filter({ hasText: "絞り込み" });
const bar = (page: Page) => page.getByRole("navigation", { name: "メインメニュー" });
const results = (page: Page, path: "/explore" | "/tickets") => page.getByRole("list", { name: path === "/explore" ? "検索結果のチケット" : "チケット一覧", exact: true });

/**
 * The first result card is on the first screen: the page not scrolled, the card's top and bottom inside the viewport
 * and above the phone's navigation bar (which would cover it). Answers the card's top, in px from the top of the page.
 */
async function expectFirstCardOnFirstScreen(page: Page, list: Locator) {
  const card = list.getByRole("article").first();
  await expect(card).toBeVisible();
  expect(await page.evaluate(() => window.scrollY), "the page is not scrolled").toBe(0);
  const box = (await card.boundingBox())!;
  const barTop = (await bar(page).boundingBox())!.y;
  expect(barTop, "the phone bar is at the bottom of the screen").toBeLessThanOrEqual(PHONE.height);
  expect(box.y, "the first card's top is on the first screen").toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `the first card (top at ${box.y} px, ${box.height} px tall) ends above the phone bar at ${barTop} px`).toBeLessThanOrEqual(barTop);
  return box.y;
}

/** The toggle's count: 「絞り込み（n）」, or 「絞り込み」 alone for none. */
async function expectCount(page: Page, count: number) {
  await expect(toggle(page)).toHaveText(count > 0 ? new RegExp(`^絞り込み（${count}）`) : /^絞り込み(?!（)/);
}

/** The open panel fits a 360 px screen: nothing in it past either edge, and the page does not scroll sideways. */
async function expectPanelFits(page: Page, panel: Locator) {
  const box = (await panel.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  const overflowing = await panel.evaluate((element, width) => [...element.querySelectorAll("*")].filter((child) => child.getBoundingClientRect().right > width + 0.5).map((child) => child.outerHTML.slice(0, 80)), PHONE.width);
  expect(overflowing, "controls past the right edge").toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** Opens the panel from the keyboard: the toggle focused, Enter opens it, as on any <summary>. */
async function openPanelByKeyboard(page: Page) {
  await toggle(page).focus();
  await expect(toggle(page)).toBeFocused();
  await page.keyboard.press("Enter");
}

for (const javaScript of [true, false]) {
  const mode = javaScript ? "with JavaScript" : "without JavaScript";

  test.describe(mode, local(NEEDS.demoData), () => {
    test.use({ javaScriptEnabled: javaScript });

    test("explore and tickets show the first result on the first screen, the filters folded behind 絞り込み", async ({ page, request }) => {
      const { titles } = await sellerWithTwoListings(request);
      const firstGameWithMinutes = `/explore?game=${GAMES.first.slug}&minutes=60&sort=price`;
      for (const [path, count] of [
        ["/explore", 0],
        ["/tickets", 0],
        // Filters in use: counted, and still folded (the results are what the search asked for).
        [firstGameWithMinutes, 2],
        [`/tickets?game=${GAMES.first.slug}`, 1],
      ] as const) {
        await open(page, path, javaScript);
        const list = results(page, path.startsWith("/explore") ? "/explore" : "/tickets");
        const top = await expectFirstCardOnFirstScreen(page, list);
        test.info().annotations.push({ type: "first card's top", description: `${path} ${mode}: ${top} px` });
        await expectCount(page, count);
        await expect(toggle(page)).toBeVisible();
        await expect(page.getByLabel("ゲーム", { exact: true }), `${path}: the panel starts closed`).toBeHidden();
        if (count > 0) await expect(list.getByRole("link", { name: titles.first, exact: true })).toBeVisible();
      }
      // The chosen order is not a filter: said beside the count rather than counted.
      await open(page, firstGameWithMinutes, javaScript);
      await expect(toggle(page)).toContainText("価格が安い順");
      // The keyword box stays out of the panel.
      await expect(page.getByRole("searchbox", { name: "キーワード" })).toBeVisible();
    });

    test("explore's panel: open it, choose a game and a length, search; the results and the count change", async ({ page, request }) => {
      const { word, titles } = await sellerWithTwoListings(request);
      // The keyword (outside the panel, not counted) keeps the results to this test's listings.
      await open(page, `/explore?q=${word}`, javaScript);
      const list = results(page, "/explore");
      await expect(list.getByRole("article")).toHaveCount(2);
      await expectCount(page, 0);

      await openPanelByKeyboard(page);
      const panel = page.locator("#explore-filters");
      await expect(panel).toBeVisible();
      await expect(toggle(page)).toHaveAttribute("aria-controls", "explore-filters");
      await expectPanelFits(page, panel);
      await page.getByLabel("ゲーム", { exact: true }).selectOption({ label: GAMES.second.name });
      if (javaScript) {
        // A changed choice searches at once; the panel stays open for the next choice, the count follows.
        await expect(page).toHaveURL(new RegExp(`game=${GAMES.second.slug}`));
        await expect(panel).toBeVisible();
        await expectCount(page, 1);
      }
      await page.getByLabel("1枠の時間").selectOption({ label: "30分" });
      await page.getByRole("button", { name: "この条件で検索" }).click();

      await expect(page).toHaveURL((url) => url.pathname === "/explore" && url.searchParams.get("game") === GAMES.second.slug && url.searchParams.get("minutes") === "30" && url.searchParams.get("q") === word);
      await expect(list.getByRole("article")).toHaveCount(1);
      await expect(list.getByRole("link", { name: titles.second, exact: true })).toBeVisible();
      await expectCount(page, 2);
      await expect(panel, "sent: the panel folds away for the results").toBeHidden();
      await expectFirstCardOnFirstScreen(page, list);

      // A filter that finds nothing: the count stays, the empty state offers to loosen it.
      await openPanelByKeyboard(page);
      await page.getByLabel("1枠の時間").selectOption({ label: "60分" });
      await page.getByRole("button", { name: "この条件で検索" }).click();
      await expect(page.getByTestId("explore-empty")).toBeVisible();
      await expectCount(page, 2);
      await expect(page.getByRole("link", { name: "1枠: 60分 を外す" })).toBeVisible();

      // The keyword's own 検索 keeps the folded filters.
      await page.getByRole("searchbox", { name: "キーワード" }).fill(titles.first.split(" ")[0]!);
      await page.getByRole("button", { name: "検索", exact: true }).click();
      await expect(page).toHaveURL((url) => url.searchParams.get("game") === GAMES.second.slug && url.searchParams.get("minutes") === "60");
      await expectCount(page, 2);
    });

    test("tickets' panel: open it, choose a game, 絞り込む; the results and the count change", async ({ page, request }) => {
      const { seller, titles } = await sellerWithTwoListings(request);
      // One seller's tickets (the page's own filter, kept by the form): this test's two listings.
      await open(page, `/tickets?seller=${seller.id}`, javaScript);
      const list = results(page, "/tickets");
      await expect(list.getByRole("article")).toHaveCount(2);
      await expectCount(page, 0);
      await expectFirstCardOnFirstScreen(page, list);

      await openPanelByKeyboard(page);
      const panel = page.locator("#tickets-filters");
      await expect(panel).toBeVisible();
      await expectPanelFits(page, panel);
      await page.getByLabel("ゲーム", { exact: true }).selectOption({ label: GAMES.first.name });
      await page.getByRole("button", { name: "絞り込む" }).click();

      await expect(page).toHaveURL((url) => url.pathname === "/tickets" && url.searchParams.get("game") === GAMES.first.slug && url.searchParams.get("seller") === seller.id);
      await expect(list.getByRole("article")).toHaveCount(1);
      await expect(list.getByRole("link", { name: titles.first, exact: true })).toBeVisible();
      await expectCount(page, 1);
      await expect(panel, "sent: the panel folds away for the results").toBeHidden();
      await expectFirstCardOnFirstScreen(page, list);
    });
  });
}

test.describe("with JavaScript", () => {
  test("Tab reaches the toggle, Escape closes an open panel and returns to it; a tap toggles it too", async ({ page }) => {
    for (const path of ["/explore", "/tickets"]) {
      await open(page, path, true);
      const panel = page.locator(path === "/explore" ? "#explore-filters" : "#tickets-filters");
      // The control before it: the keyword's 検索, or the page's 「チケットを出品する」.
      await (path === "/explore" ? page.getByRole("button", { name: "検索", exact: true }) : page.getByRole("link", { name: "チケットを出品する" })).focus();
      await page.keyboard.press("Tab");
      await expect(toggle(page)).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(panel).toBeVisible();
      await page.getByLabel("ゲーム", { exact: true }).focus();
      await page.keyboard.press("Escape");
      await expect(panel).toBeHidden();
      await expect(toggle(page)).toBeFocused();
      await toggle(page).click();
      await expect(panel).toBeVisible();
      await toggle(page).click();
      await expect(panel).toBeHidden();
    }
  });
});

for (const javaScript of [true, false]) {
  test.describe(`from 640 px, ${javaScript ? "with" : "without"} JavaScript`, () => {
    test.use({ viewport: { width: 1280, height: 800 }, hasTouch: false, javaScriptEnabled: javaScript });

    test("the filters show as before, with no toggle", async ({ page }) => {
      await open(page, "/explore?minutes=60", javaScript);
      await expect(toggle(page)).toBeHidden();
      for (const label of ["ゲーム", "価格（下限）", "価格（上限）", "評価", "1枠の時間", "並び順", "いまオンラインの人だけ"]) await expect(page.getByLabel(label, { exact: true })).toBeVisible();
      await expect(page.getByRole("button", { name: "この条件で検索" })).toBeHidden();
      await open(page, "/tickets", javaScript);
      await expect(toggle(page)).toBeHidden();
      await expect(page.getByLabel("ゲーム", { exact: true })).toBeVisible();
      await expect(page.getByRole("button", { name: "絞り込む" })).toBeVisible();
    });
  });
}

test.describe("with JavaScript, a search already on its way", local(NEEDS.demoData), () => {
  test("a choice, then この条件で検索 before its results came: one search, not a second that cancels the first", async ({ page, request }) => {
    const { word, titles } = await sellerWithTwoListings(request);
    await open(page, `/explore?q=${word}`, true);
    // The choice's search is held back a moment, as on a slow connection, so the button is pressed while it is on its way.
    const searches: string[] = [];
    page.on("request", (sent) => {
      if (sent.url().includes("/explore.data?") && new URL(sent.url()).searchParams.get("minutes") === "30") searches.push(sent.url());
    });
    await page.route(/\/explore\.data\?/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await openPanelByKeyboard(page);
    await page.getByLabel("1枠の時間").selectOption({ label: "30分" });
    await page.getByRole("button", { name: "この条件で検索" }).click();

    const list = results(page, "/explore");
    await expect(page).toHaveURL((url) => url.searchParams.get("minutes") === "30" && url.searchParams.get("q") === word);
    await expect(list.getByRole("article")).toHaveCount(1);
    await expect(list.getByRole("link", { name: titles.second, exact: true })).toBeVisible();
    expect(searches, "the data of the search asked for").toHaveLength(1);
  });
});
