import type { APIRequestContext } from "@playwright/test";
import { axeViolations, bearer, createUser, expect, local, login, NEEDS, test, waitForHydration } from "./fixtures";

type User = Awaited<ReturnType<typeof createUser>>;

/** A completed booking between a seller and a buyer (with 1,000 coins, 300 of them spent on it), through the API. */
async function completedBooking(request: APIRequestContext, title: string) {
  const seller = await createUser(request, "レビューされる販売者");
  const buyer = await createUser(request, "レビューする購入者");
  expect((await request.post("/api/coins/orders", { data: { packageId: 2 }, headers: bearer(buyer, crypto.randomUUID()) })).status()).toBe(201);
  const listing = await request.post("/api/listings", {
    data: { title, gameSlug: "apex-legends", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 2 },
    headers: bearer(seller),
  });
  const listingId = (await listing.json()).data.listing.id as string;
  const booked = await request.post(`/api/listings/${listingId}/purchase`, { data: { units: 1, desiredStartTime: Date.now() + 60_000 }, headers: bearer(buyer, crypto.randomUUID()) });
  const bookingId = (await booked.json()).data.ticket.id as string;
  for (const [user, action] of [[seller, "accept"], [seller, "start"], [buyer, "complete"]] as const) {
    expect((await request.post(`/api/tickets/${bookingId}/${action}`, { data: {}, headers: bearer(user) })).status()).toBe(200);
  }
  return { seller, buyer, listingId, bookingId };
}

test("the buyer reviews with a tip in the dialog; it closes itself after 3 seconds, and the seller's balance and rating change", local(NEEDS.testPayments, NEEDS.demoData), async ({ browser, request }) => {
  test.slow();
  const title = "レビューのテスト用チケット";
  const { seller, buyer, listingId } = await completedBooking(request, title);
  const page = await (await browser.newContext()).newPage();
  await login(page, buyer.email, "/settings/ticket-management");
  await waitForHydration(page);
  const card = page.getByRole("article", { name: title });
  await card.getByRole("link", { name: "レビューされる販売者さんのレビューを書く" }).click();

  const dialog = page.getByRole("dialog", { name: "レビューを書く" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("販売者");
  await expect(dialog).toContainText("レビューされる販売者");
  expect(await axeViolations(page), "the open dialog").toEqual([]);
  const send = dialog.getByRole("button", { name: "レビューを送信する" });
  await expect(send).toBeDisabled();
  // The stars are a radio group: keyboard operable, announced as 「N つ星（5段階中）」.
  await dialog.getByLabel("4つ星（5段階中）").check();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByLabel("5つ星（5段階中）")).toBeChecked();
  await expect(send).toBeEnabled();
  await dialog.getByLabel("コメント（任意）").fill("  とても丁寧に教えてもらえました  ");
  await expect(dialog.getByText("15/500")).toBeVisible();
  // The tip, with the coin slider from 0: two steps right is 300 coins.
  const tip = dialog.getByLabel("チップ（任意）");
  await tip.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(tip).toHaveAttribute("aria-valuetext", "300コイン");
  await send.click();
  await expect(dialog.getByRole("status")).toHaveText("レビューを送信しました");
  const sentAt = Date.now();
  await expect(dialog).toBeHidden({ timeout: 6_000 });
  expect(Date.now() - sentAt).toBeGreaterThan(2_000);
  // submitted: the page reloaded its tickets.
  await expect(card).toContainText("✓ レビュー済み");
  await expect(page.getByTestId("coin-balance")).toHaveText("400");

  // The seller: 300 − 20 % for the session and 300 − 20 % for the tip; the rating on the ticket's page.
  const sellerPage = await (await browser.newContext()).newPage();
  await login(sellerPage, seller.email, "/mypage");
  await expect(sellerPage.getByTestId("coin-balance")).toHaveText("480");
  await sellerPage.goto(`/tickets/${listingId}`);
  await expect(sellerPage.getByRole("img", { name: "評価 5.0（1件）" })).toBeVisible();
  await expect(sellerPage.getByRole("list", { name: "レビュー一覧" })).toContainText("とても丁寧に教えてもらえました");
  await expect(sellerPage.getByRole("list", { name: "レビュー一覧" })).toContainText("チップ 300コイン");
});

test.describe("with JavaScript disabled", local(NEEDS.testPayments, NEEDS.demoData), () => {
  test.use({ javaScriptEnabled: false });

  test("the seller reviews the buyer on the review page: stars as radio buttons, the server's errors, a flash toast", async ({ page, request }) => {
    const title = "フォームでレビューするチケット";
    const { seller } = await completedBooking(request, title);
    await login(page, seller.email, "/settings/ticket-management?role=seller");
    await page.getByRole("article", { name: title }).getByRole("link", { name: "レビューする購入者さんのレビューを書く" }).click();
    await expect(page).toHaveURL(/\/settings\/ticket-management\/[0-9a-f-]{36}\/review$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("レビューを書く");
    await expect(page.getByRole("main")).toContainText("購入者");
    // No tip for the seller.
    await expect(page.getByLabel("チップ（任意）")).toHaveCount(0);
    await page.getByLabel("コメント（任意）").fill("時間どおりで助かりました");
    await page.getByRole("button", { name: "レビューを送信する" }).click();
    await expect(page.getByRole("alert")).toContainText("評価（星）を選んでください");
    await expect(page.getByLabel("コメント（任意）")).toHaveValue("時間どおりで助かりました");
    await page.getByLabel("4つ星（5段階中）").check();
    await page.getByRole("button", { name: "レビューを送信する" }).click();
    await expect(page).toHaveURL("/settings/ticket-management");
    // In the page (CSS fades it after 3 s, which a slow machine can spend loading the page).
    await expect(page.getByTestId("toast").filter({ hasText: "レビューを送信しました" })).toBeAttached();
    await page.goto("/settings/ticket-management?role=seller");
    await expect(page.getByRole("article", { name: title })).toContainText("✓ レビュー済み");
  });
});
