import type { APIRequestContext, Page } from "@playwright/test";
import { createUser, E2E_PASSWORD, expect, local, NEEDS, test, waitForHydration } from "./fixtures";

/**
 * A visitor's way from the home page to a booking: home → explore → a game filter → the seller's profile
 * → the ticket → sign in from the ticket page and come back → confirm the booking. Once with JavaScript, once
 * without (the explore form is then a plain GET form, the filter applied by its 検索 button).
 */

/** A game the other specs do not list tickets in, so the seller's ticket is on the first page of the results. */
const GAME = { slug: "fortnite", name: "フォートナイト" };
const PRICE = 300;

/** A seller with a ticket in GAME, and a buyer with 500 coins; both made through the API. */
async function sellerAndBuyer(request: APIRequestContext) {
  const suffix = Math.random().toString(16).slice(2, 8);
  const seller = await createUser(request, `探される出品者${suffix}`);
  const title = `夜のビクロイ周回 ${suffix}`;
  const listing = await request.post("/api/listings", {
    data: { title, gameSlug: GAME.slug, description: "ボイスチャットあり", pricePerUnit: PRICE, minutesPerUnit: 60, maxUnits: 2 },
    headers: { Authorization: `Bearer ${seller.token}` },
  });
  expect(listing.status()).toBe(201);
  const buyer = await createUser(request, `探す人${suffix}`);
  const order = await request.post("/api/coins/orders", { data: { packageId: 1 }, headers: { Authorization: `Bearer ${buyer.token}`, "Idempotency-Key": crypto.randomUUID() } });
  expect(order.status()).toBe(201);
  return { seller, buyer, title, listingId: (await listing.json()).data.listing.id as string };
}

async function visitorBooks(page: Page, request: APIRequestContext, { javaScript }: { javaScript: boolean }) {
  const { seller, buyer, title, listingId } = await sellerAndBuyer(request);

  // Home → explore.
  await page.goto("/");
  await page.getByRole("link", { name: "一緒に遊ぶ人をさがす", exact: true }).click();
  await expect(page).toHaveURL("/explore");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("一緒に遊ぶ人をさがす");

  // The game filter: with JavaScript a changed choice searches at once; without, the form's 検索 button sends it.
  if (javaScript) await waitForHydration(page);
  await page.getByLabel("ゲーム", { exact: true }).selectOption({ label: GAME.name });
  if (javaScript) {
    await expect(page).toHaveURL(`/explore?game=${GAME.slug}`);
  } else {
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/explore\\?.*game=${GAME.slug}`));
  }
  const results = page.getByRole("list", { name: "検索結果のチケット", exact: true });
  await expect(results.getByRole("link", { name: title, exact: true })).toBeVisible();

  // The seller's name on the card → their profile, which lists the ticket.
  await results.getByRole("link", { name: seller.displayName, exact: true }).click();
  await expect(page).toHaveURL(`/u/${seller.id}`);
  await expect(page.getByRole("heading", { name: "販売中のチケット", exact: true })).toBeVisible();
  await page.getByRole("link", { name: title, exact: true }).click();
  await expect(page).toHaveURL(`/tickets/${listingId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);

  // Signed out, the ticket's form leads to the login page, which comes back to the booking's confirmation.
  await page.getByRole("button", { name: "ログインして購入内容を確認する", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  expect(new URL(page.url()).searchParams.get("redirectTo")).toMatch(new RegExp(`^/tickets/${listingId}/confirm\\?`));
  await page.getByLabel("メールアドレス").fill(buyer.email);
  await page.getByLabel("パスワード").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${listingId}/confirm\\?.*key=[0-9a-f-]{36}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("購入内容の確認");
  await page.getByRole("button", { name: `${PRICE}コインで購入する`, exact: true }).click();
  // With JavaScript the flash is a toast that leaves after TOAST_MS (3 s): watched for from the click on, beside the
  // checks below, or a slow machine can spend those 3 s on them and look only after it left (as CI once did).
  const toast = javaScript ? expect(page.getByTestId("toast").filter({ hasText: "チケットを購入しました" })).toBeVisible() : undefined;
  await expect(page).toHaveURL("/settings/ticket-management");
  await expect(page.getByRole("article", { name: title, exact: true })).toContainText("承認待ち");
  await toast;
}

test.describe("with JavaScript", local(NEEDS.testPayments, NEEDS.demoData), () => {
  test("a visitor finds a seller through explore, opens the ticket, signs in and books it", async ({ page, request }) => {
    test.slow();
    await visitorBooks(page, request, { javaScript: true });
  });
});

test.describe("without JavaScript", local(NEEDS.testPayments, NEEDS.demoData), () => {
  test.use({ javaScriptEnabled: false });

  test("the same way with plain links and GET forms", async ({ page, request }) => {
    test.slow();
    await visitorBooks(page, request, { javaScript: false });
  });
});
