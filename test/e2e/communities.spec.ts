import { axeViolations, createUser, expect, local, login, NEEDS, test, waitForHydration } from "./fixtures";

/** Game pages and communities: join from the page, post into it through the dialog, and the same without JavaScript. */

test("with JavaScript: a user joins a community from its page and posts into it through the dialog", local(NEEDS.demoData), async ({ page, request }) => {
  test.slow();
  const me = await createUser(request, "コミュニティに入る人");
  await login(page, me.email, "/community/valorant-night");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "VALORANT夜活" })).toBeVisible();
  const count = page.getByTestId("community-members-count");
  const before = Number(await count.textContent());
  await page.getByRole("button", { name: "参加する" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "「VALORANT夜活」に参加しました" })).toBeVisible();
  await expect(count).toHaveText(String(before + 1));
  await expect(page.getByRole("list", { name: "メンバー" })).toContainText("コミュニティに入る人");

  await page.getByRole("link", { name: "このコミュニティに投稿" }).click();
  const dialog = page.getByRole("dialog", { name: "新しい投稿" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("コミュニティ")).toHaveValue(/[0-9a-f-]{36}/);
  await expect(dialog.getByLabel("コミュニティ").locator("option:checked")).toHaveText(/VALORANT夜活/);
  await dialog.getByLabel("投稿内容").fill("今夜フルパ組める人いますか？");
  expect(await axeViolations(page), "the open dialog with the community choice").toEqual([]);
  await dialog.getByRole("button", { name: "投稿する", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("post").filter({ hasText: "今夜フルパ組める人いますか？" })).toBeVisible();

  // The game page lists the community and the post.
  await page.getByRole("link", { name: "VALORANT", exact: true }).first().click();
  await expect(page).toHaveURL(/\/games\/valorant$/);
  await expect(page.getByRole("link", { name: "VALORANT夜活" })).toBeVisible();
  await expect(page.getByTestId("post").filter({ hasText: "今夜フルパ組める人いますか？" })).toBeVisible();
});

test.describe("with JavaScript disabled", local(NEEDS.demoData), () => {
  test.use({ javaScriptEnabled: false });

  test("a user finds a community through the game pages, joins it and posts with the plain form", async ({ page, request }) => {
    test.slow();
    const me = await createUser(request, "フォームで入る人");
    await login(page, me.email, "/games");
    await page.getByRole("link", { name: /ストリートファイター6/ }).click();
    await expect(page).toHaveURL(/\/games\/street-fighter-6$/);
    await page.getByRole("link", { name: "スト6 ラウンジ", exact: true }).click();
    await expect(page).toHaveURL(/\/community\/sf6-lounge$/);
    await page.getByRole("button", { name: "参加する" }).click();
    // In the page (CSS fades it after 3 s, which a slow machine can spend loading the page).
    await expect(page.getByTestId("toast").filter({ hasText: "「スト6 ラウンジ」に参加しました" })).toBeAttached();
    await expect(page.getByRole("button", { name: "退会する" })).toBeVisible();

    await page.getByRole("link", { name: "このコミュニティに投稿" }).click();
    await expect(page).toHaveURL(/\/posts\/new\?community=sf6-lounge$/);
    await expect(page.getByLabel("コミュニティ").locator("option:checked")).toHaveText(/スト6 ラウンジ/);
    await page.getByLabel("投稿内容").fill("ルームマッチ募集中です");
    await page.getByRole("button", { name: "投稿する", exact: true }).click();
    await expect(page).toHaveURL(/\/community\/sf6-lounge$/);
    await expect(page.getByTestId("post").filter({ hasText: "ルームマッチ募集中です" })).toBeVisible();
    expect(await axeViolations(page, { javaScriptEnabled: false })).toEqual([]);
  });
});
