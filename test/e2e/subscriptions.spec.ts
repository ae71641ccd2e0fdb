import { bearer, createUser, expect, local, login, NEEDS, test, waitForHydration } from "./fixtures";

/** Subscribing from a profile opens a subscriber-only post. */

test("a fan sees a locked post, subscribes from the profile after a confirmation, and the post opens", local(NEEDS.testPayments), async ({ page, request }) => {
  test.slow();
  const creator = await createUser(request, "限定投稿のクリエイター");
  const fan = await createUser(request, "サブスクするファン");
  expect((await request.put("/api/store/subscription-plan", { data: { monthlyPrice: 300, description: "毎週の立ち回り解説" }, headers: bearer(creator) })).status()).toBe(200);
  expect((await request.post("/api/posts/create", { data: { content: "サブスク限定：今週の立ち回り", imageUrl: null, isPublic: false }, headers: bearer(creator) })).status()).toBe(201);
  expect((await request.post("/api/coins/orders", { data: { packageId: 2 }, headers: bearer(fan, crypto.randomUUID()) })).status()).toBe(201);

  await login(page, fan.email, `/u/${creator.id}/posts`);
  await waitForHydration(page);
  const locked = page.getByTestId("locked-post");
  await expect(locked).toContainText("サブスク限定の投稿です");
  await expect(page.getByText("サブスク限定：今週の立ち回り")).toHaveCount(0);

  await expect(page.getByText("サブスク限定の投稿が見られます：300コイン / 30日")).toBeVisible();
  await page.getByRole("link", { name: "サブスクする", exact: true }).click();
  await expect(page.getByRole("heading", { name: "限定投稿のクリエイターさんをサブスク" })).toBeVisible();
  const confirmation = page.getByRole("table", { name: "お申し込み内容" });
  await expect(confirmation).toContainText("300コイン");
  await expect(confirmation).toContainText("1,000コイン");
  await expect(confirmation).toContainText("700コイン");
  await page.getByRole("button", { name: "300コインでサブスクする" }).click();
  // The toast leaves after 3 s: watched for from the click on, beside the navigation.
  const toast = expect(page.getByTestId("toast").filter({ hasText: "サブスクしました" })).toBeVisible();

  await expect(page).toHaveURL(`/u/${creator.id}/posts`);
  await toast;
  await expect(page.getByText("サブスク限定：今週の立ち回り")).toBeVisible();
  await expect(page.getByTestId("locked-post")).toHaveCount(0);
  await expect(page.getByTestId("coin-balance")).toHaveText("700");
  await expect(page.getByText(/サブスク中（.+まで）/)).toBeVisible();

  await page.goto("/settings/subscription");
  await expect(page.getByRole("list", { name: "サブスク一覧" })).toContainText("限定投稿のクリエイター");
  await expect(page.getByRole("link", { name: "更新する（300コイン）" })).toBeVisible();
});
