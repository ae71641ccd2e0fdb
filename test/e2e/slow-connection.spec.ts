import type { APIRequestContext, Page } from "@playwright/test";
import { createUser, expect, local, login, NEEDS, test } from "./fixtures";

/**
 * On a slow connection a person fills in a form and sends it before the page's JavaScript has arrived: the
 * explore search and a ticket's booking form are plain GET forms, so the server answers them as it would without
 * JavaScript. Each test holds the app's scripts back until its form has been sent, so "before hydration" is a fact
 * of the test rather than a race it usually wins; what it checks is the page the person lands on, not how fast.
 */

/** Chromium's Slow 3G (400 ms round trip, 400 kbps down and up) and a 4× slower CPU, as `npm run bench:first-load`. */
async function throttle(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}

/**
 * Holds every script of the app (Vite's /assets/*.js, the entry and its preloads included) until `release()`, so the
 * page cannot hydrate; `requested()` counts the ones asked for. Routing also turns the HTTP cache off, so scripts
 * cached by an earlier page cannot slip past.
 */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested = 0;
  await page.route("**/assets/*.js", async (route) => {
    requested++;
    await released;
    // The document that asked may have been replaced by the form's answer meanwhile: then no one waits for it.
    await route.continue().catch(() => {});
  });
  return { release, requested: () => requested };
}

/**
 * Sends a form while the page is still the server's HTML, its scripts held back by `holdScripts`, and lets them go
 * only once the server's answer has replaced the page (`lands` recognises its URL).
 */
async function submitBeforeHydration(
  page: Page,
  scripts: Awaited<ReturnType<typeof holdScripts>>,
  { submit, lands }: { submit: () => Promise<void>; lands: (url: URL) => boolean },
) {
  // The page has asked for its scripts and is waiting for them: it cannot hydrate before they are released.
  await expect.poll(scripts.requested, { message: "the page asks for its scripts" }).toBeGreaterThan(0);
  await expect(page.locator("html"), "the page is still server-rendered when the form is sent").not.toHaveAttribute("data-hydrated");
  await submit();
  await page.waitForURL(lands, { waitUntil: "commit" });
  scripts.release();
}

/** A seller's ticket with a word in its title that no other ticket has. */
async function sellerWithTicket(request: APIRequestContext) {
  const keyword = `低速回線${Math.random().toString(16).slice(2, 8)}`;
  const seller = await createUser(request, "回線の遅い日の出品者");
  const title = `${keyword}でも遊べるランクマッチ`;
  const listing = await request.post("/api/listings", {
    data: { title, gameSlug: "valorant", description: "ボイスチャットあり", pricePerUnit: 300, minutesPerUnit: 60, maxUnits: 2 },
    headers: { Authorization: `Bearer ${seller.token}` },
  });
  expect(listing.status()).toBe(201);
  return { keyword, title, listingId: (await listing.json()).data.listing.id as string };
}

test("a visitor searches explore before its JavaScript arrives and gets that keyword's results", local(NEEDS.demoData), async ({ page, request }) => {
  test.slow();
  const { keyword, title } = await sellerWithTicket(request);
  await throttle(page);
  const scripts = await holdScripts(page);

  await page.goto("/explore", { waitUntil: "commit" });
  const form = page.getByRole("search", { name: "チケットの検索" });
  await form.getByLabel("キーワード").fill(keyword);
  await submitBeforeHydration(page, scripts, {
    submit: () => form.getByRole("button", { name: "検索", exact: true }).click(),
    lands: (url) => url.pathname === "/explore" && url.searchParams.get("q") === keyword,
  });

  // The server's answer for that keyword: the search field keeps it, and the one ticket with it is the only result.
  await expect(form.getByLabel("キーワード")).toHaveValue(keyword);
  const results = page.getByRole("list", { name: "検索結果のチケット", exact: true });
  await expect(results.getByRole("listitem")).toHaveCount(1);
  await expect(results.getByRole("link", { name: title, exact: true })).toBeVisible();
});

test("a member books from a ticket's page before its JavaScript arrives and reaches the confirmation", local(NEEDS.testPayments, NEEDS.demoData), async ({ page, request }) => {
  test.slow();
  const { title, listingId } = await sellerWithTicket(request);
  const buyer = await createUser(request, "回線の遅い日の購入者");
  // 1,000 coins, enough for the 600 the booking costs.
  const order = await request.post("/api/coins/orders", { data: { packageId: 2 }, headers: { Authorization: `Bearer ${buyer.token}`, "Idempotency-Key": crypto.randomUUID() } });
  expect(order.status()).toBe(201);
  // Signed in at full speed: the slow part is the ticket's page.
  await login(page, buyer.email, "/mypage");
  await throttle(page);
  const scripts = await holdScripts(page);

  await page.goto(`/tickets/${listingId}`, { waitUntil: "commit" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await page.getByLabel("枠数").selectOption("2");
  await page.getByLabel("販売者へのメッセージ（任意）").fill("回線が遅いのでゆっくりお願いします");
  await submitBeforeHydration(page, scripts, {
    submit: () => page.getByRole("button", { name: "購入内容を確認する", exact: true }).click(),
    lands: (url) => url.pathname === `/tickets/${listingId}/confirm`,
  });

  // The form's GET is answered with the confirmation, its idempotency key added to the URL, showing what was chosen.
  await expect(page).toHaveURL(new RegExp(`/tickets/${listingId}/confirm\\?units=2&.*key=[0-9a-f-]{36}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("購入内容の確認");
  await expect(page.getByRole("row", { name: /^チケット/ })).toContainText(title);
  await expect(page.getByRole("row", { name: /^枠数/ })).toContainText("2枠（2時間）");
  await expect(page.getByRole("row", { name: /^メッセージ/ })).toContainText("回線が遅いのでゆっくりお願いします");
  await expect(page.getByRole("button", { name: "600コインで購入する", exact: true })).toBeVisible();
});
