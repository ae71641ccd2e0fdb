import { createUser, documentWasReloaded, expect, markDocument, test, waitForHydration } from "./fixtures";

/**
 * With JavaScript, a page that fails after a client-side navigation shows its error inside its layout (ADR 057): the
 * header's menu stays and still navigates, without a full page load. The server's HTML for every layout is checked
 * by test/integration/layout-errors.test.ts.
 */
test("a ticket withdrawn while its card was on screen: the 404 shows inside the layout and the menu still works", async ({ page, request }) => {
  const suffix = Math.random().toString(16).slice(2, 8);
  const seller = await createUser(request, `出品者${suffix}`);
  const auth = { Authorization: `Bearer ${seller.token}` };
  const title = `取り下げるチケット${suffix}`;
  const created = await request.post("/api/listings", {
    data: { title, gameSlug: "apex-legends", description: "一緒に遊びましょう", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 1 },
    headers: auth,
  });
  expect(created.status()).toBe(201);
  const listingId = (await created.json()).data.listing.id as string;

  await page.goto(`/u/${seller.id}`);
  await waitForHydration(page);
  await markDocument(page);
  const card = page.getByRole("link", { name: title });
  await expect(card).toBeVisible();

  // The seller withdraws it meanwhile: the card the visitor is about to press now leads to a page that is gone.
  expect((await request.patch(`/api/listings/${listingId}`, { data: { status: "archived" }, headers: auth })).status()).toBe(200);
  await card.click();

  await expect(page).toHaveURL(`/tickets/${listingId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
  await expect(page).toHaveTitle("ページが見つかりません - GamerMatch - ゲーマーマッチングプラットフォーム");
  // Inside the ticket page's layout, under the same header, and no page load happened.
  await expect(page.locator('[data-layout="default"]').getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
  expect(await documentWasReloaded(page)).toBe(false);

  const menu = page.getByRole("banner").getByRole("navigation", { name: "メインメニュー" });
  await menu.getByRole("link", { name: "イベント" }).click();
  await expect(page).toHaveURL("/events");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("イベント");
  await expect(page.locator("#error-title")).toHaveCount(0);
  expect(await documentWasReloaded(page)).toBe(false);

  // Back to the failed page and on through the error page's own buttons: history works as on any page.
  await page.goBack();
  await expect(page).toHaveURL(`/tickets/${listingId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
  await page.getByRole("button", { name: "前のページに戻る" }).click();
  await expect(page).toHaveURL(`/u/${seller.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(seller.displayName);
});
