import { createUser, expect, local, login, NEEDS, test, waitForHydration } from "./fixtures";

const TITLE = / - GamerMatch - ゲーマーマッチングプラットフォーム$/;

test("home introduces the product, leads to every section and lists the popular games with their pages", local(NEEDS.demoData), async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await expect(page).toHaveTitle("ホーム - GamerMatch - ゲーマーマッチングプラットフォーム");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("一緒に遊ぶ仲間が");
  const sections = page.getByRole("navigation", { name: "さがし方", exact: true });
  for (const [name, href] of [["さがす", "/explore"], ["ゲーム", "/games"], ["イベント", "/events"], ["フィード", "/feed"]] as const) {
    await expect(sections.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", href);
  }
  const games = page.getByRole("list", { name: "人気のゲーム", exact: true });
  await expect(games.getByRole("listitem")).toHaveCount(8);
  await games.getByRole("link", { name: /Apex Legends/ }).click();
  await expect(page).toHaveURL("/games/apex-legends");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apex Legends");
});

test("the support and legal pages are reachable from the footer", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  const footer = page.getByRole("contentinfo");
  for (const [link, heading] of [
    ["利用規約", "利用規約"],
    ["プライバシーポリシー", "プライバシーポリシー"],
    ["特定商取引法に基づく表記", "特定商取引法に基づく表記"],
    ["よくある質問・サポート", "サポート"],
  ] as const) {
    await footer.getByRole("link", { name: link }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page).toHaveTitle(TITLE);
  }
});

test("an FAQ answer opens from the keyboard", async ({ page }) => {
  await page.goto("/support");
  const question = page.getByRole("main").locator("summary").first();
  await question.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main").locator("details").first()).toHaveAttribute("open", "");
});

test("an unknown path shows the 404 page with status 404", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
  await expect(page.getByText("Page not found: /no-such-page")).toBeVisible();
  await expect(page).toHaveTitle("ページが見つかりません - GamerMatch - ゲーマーマッチングプラットフォーム");
  await page.getByRole("link", { name: "トップページへ" }).click();
  await expect(page).toHaveURL("/");
});

test("the back button of the error page goes home when there is no history", async ({ page }) => {
  await page.goto("/no-such-page");
  await waitForHydration(page);
  await page.getByRole("button", { name: "前のページに戻る" }).click();
  await expect(page).toHaveURL("/");
});

test("the back button of the error page goes back when there is history", async ({ page }) => {
  await page.goto("/support");
  await waitForHydration(page);
  await page.evaluate(() => (window as unknown as { __remixRouter: { navigate(to: string): void } }).__remixRouter.navigate("/missing"));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
  await page.getByRole("button", { name: "前のページに戻る" }).click();
  await expect(page).toHaveURL("/support");
});

test("signed in, the 404 page's header shows the real unread count and balance, also after hydration", async ({ page, request }) => {
  const me = await createUser(request, "迷子");
  await login(page, me.email, "/mypage");
  await page.goto("/no-such-page");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
  // The welcome notification: the server's count, then the browser's own read of it, both say one.
  await expect(page.locator("[data-auth-status]")).toHaveAttribute("data-auth-status", "signedIn");
  await expect(page.getByRole("banner").getByRole("link", { name: /通知/ })).toHaveAccessibleName("1件の未読通知");
  await expect(page.getByTestId("notification-count")).toHaveText("1");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 640 } });
  test("the home page fits the screen without sideways scrolling", async ({ page }) => {
    await page.goto("/");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("signed in, the header (bell, menu) and the bar (chat, my page) fit too", async ({ page, request }) => {
    const me = await createUser(request, "スマホユーザー");
    await login(page, me.email, "/notifications");
    await expect(page.getByRole("banner").getByRole("link", { name: /通知/ })).toBeVisible();
    await expect(page.getByRole("banner").locator("summary")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "メインメニュー" }).getByRole("link", { name: "チャット" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "メインメニュー" }).getByRole("link", { name: "マイページ" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
