import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { createUser, documentWasReloaded, E2E_PASSWORD, expect, local, login, markDocument, NEEDS, test, waitForHydration } from "./fixtures";

interface CoinPackage {
  id: number;
  name: string;
  coins: number;
  price: number;
  discountPercent: number;
}

const yen = (n: number) => n.toLocaleString("ja-JP");

/** The header's balance: a link to /coins that, with JavaScript, opens the purchase dialog. */
const balanceLink = (page: Page) => page.getByRole("banner").getByRole("link", { name: /コインを購入/ });
const packageLink = (scope: Page | Locator, coins: number) =>
  scope.getByRole("list", { name: "コインパッケージ" }).getByRole("link", { name: new RegExp(`^${yen(coins)}コイン`) });
const payButton = (page: Page) => page.getByRole("button", { name: /^テスト決済で購入する/ });
/** A checkout page: the package's, with the idempotency key its first visit was given. */
const checkoutUrl = (packageId: number) => new RegExp(`/coins/checkout/${packageId}\\?key=[0-9a-f-]{36}$`);
const detailRow = (page: Page, label: string) => page.getByRole("row", { name: new RegExp(`^${label}`) });

async function packages(request: APIRequestContext, token: string) {
  const response = await request.get("/api/coins/packages", { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { packages: CoinPackage[] } }).data.packages;
}

/** Buys through the API (the test provider pays at once): a balance to start from. */
async function buy(request: APIRequestContext, token: string, packageId: number) {
  const response = await request.post("/api/coins/orders", {
    data: { packageId },
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": crypto.randomUUID() },
  });
  expect(response.status()).toBe(201);
}

/** The purchase rows of /settings/coin-history. */
async function expectOnePurchase(page: Page, { amount, balanceAfter }: { amount: number; balanceAfter: number }) {
  await page.goto("/settings/coin-history");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("コイン履歴");
  const rows = page.getByRole("table", { name: /コインの取引/ }).getByRole("row").filter({ hasText: "購入" });
  await expect(rows).toHaveCount(1);
  const cells = rows.first().getByRole("cell");
  await expect(cells.nth(1)).toHaveText("購入");
  await expect(cells.nth(2)).toHaveText(`+${yen(amount)}`);
  await expect(cells.nth(3)).toHaveText(yen(balanceAfter));
}

/** The checkout's 特定商取引法 final confirmation for a package, then the test provider's pay button. */
async function expectCheckoutDisclosures(page: Page, pack: { coins: number; price: number }) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("購入内容の確認");
  await expect(detailRow(page, "数量")).toContainText(`${yen(pack.coins)}コイン`);
  await expect(detailRow(page, "お支払い金額")).toContainText(`¥${yen(pack.price)}（税込）`);
  await expect(detailRow(page, "お支払い方法")).toContainText("テスト決済");
  await expect(detailRow(page, "お支払い時期")).toContainText("「購入する」を押した時点");
  await expect(detailRow(page, "引き渡し時期")).toContainText("ただちに");
  await expect(detailRow(page, "返品・キャンセル")).toContainText("返金・換金・払い戻しはできません");
  await expect(page.getByRole("main").getByRole("link", { name: "特定商取引法に基づく表記" })).toHaveAttribute("href", "/transaction-act");
  await expect(payButton(page)).toHaveText(`テスト決済で購入する（¥${yen(pack.price)}）`);
}

async function expectPaid(page: Page, { coins, balance }: { coins: number; balance: number }) {
  await expect(page).toHaveURL(/\/coins\/orders\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("購入が完了しました");
  await expect(page.getByRole("main")).toContainText(`${yen(coins)}コインを追加しました。`);
  await expect(page.getByTestId("result-balance")).toHaveText(yen(balance));
}

test.describe("with JavaScript disabled", local(NEEDS.testPayments), () => {
  test.use({ javaScriptEnabled: false });

  test("the header's balance leads to /coins, the checkout states the 特商法 items and pays, history lists it", async ({ page, request }) => {
    const me = await createUser(request, "コイン購入者");
    await login(page, me.email, "/mypage");
    await expect(page.getByRole("banner").getByTestId("coin-balance")).toHaveText("0");

    await balanceLink(page).click();
    await expect(page).toHaveURL("/coins");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("コインを購入");
    await packageLink(page, 1_000).click();
    await expect(page).toHaveURL(checkoutUrl(2));
    await expectCheckoutDisclosures(page, { coins: 1_000, price: 1_040 });

    await payButton(page).click();
    await expectPaid(page, { coins: 1_000, balance: 1_000 });
    await expect(page.getByRole("banner").getByTestId("coin-balance")).toHaveText("1,000");

    await page.getByRole("link", { name: "コイン履歴を見る" }).click();
    await expect(page).toHaveURL("/settings/coin-history");
    await expectOnePurchase(page, { amount: 1_000, balanceAfter: 1_000 });
  });

  test("posting the same checkout form again (back, then submit) charges once", async ({ page, request }) => {
    const me = await createUser(request, "二度押し（JSなし）");
    await login(page, me.email, "/coins");
    await packageLink(page, 500).click();
    await expect(page).toHaveURL(checkoutUrl(1));
    const formUrl = page.url();
    const key = await page.locator('input[name="idempotencyKey"]').inputValue();
    expect(formUrl).toContain(`key=${key}`);

    await payButton(page).click();
    await expectPaid(page, { coins: 500, balance: 500 });
    const orderUrl = page.url();

    await page.goBack();
    await expect(page).toHaveURL(formUrl);
    await expect(page.locator('input[name="idempotencyKey"]')).toHaveValue(key);
    await payButton(page).click();
    // The same order, paid once.
    await expect(page).toHaveURL(orderUrl);
    await expectPaid(page, { coins: 500, balance: 500 });
    await expectOnePurchase(page, { amount: 500, balanceAfter: 500 });
  });
});

test.describe("with JavaScript", local(NEEDS.testPayments), () => {
  test("the header's balance opens the modal purchase dialog; a purchase updates another open tab live", async ({ page, context, request }) => {
    const me = await createUser(request, "ダイアログ購入者");
    const expected = await packages(request, me.token);
    expect(expected).toHaveLength(7);

    // A second tab of the same browser, signed in as the same user, waiting on its socket.
    await login(page, me.email, "/mypage");
    const otherTab = await context.newPage();
    const otherTabErrors: string[] = [];
    otherTab.on("pageerror", (error) => otherTabErrors.push(error.message));
    otherTab.on("console", (message) => message.type() === "error" && otherTabErrors.push(message.text()));
    await otherTab.goto("/");
    await waitForHydration(otherTab);
    await expect(otherTab.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
    await expect(otherTab.getByTestId("coin-balance")).toHaveText("0");
    await markDocument(otherTab);

    await page.goto("/");
    await waitForHydration(page);
    const opener = balanceLink(page);
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "コインを購入" });
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
    await expect(page).toHaveURL("/");

    const items = dialog.getByRole("list", { name: "コインパッケージ" }).getByRole("listitem");
    await expect(items).toHaveCount(7);
    for (const [index, pack] of expected.entries()) {
      const item = items.nth(index);
      await expect(item).toContainText(`${yen(pack.coins)}コイン`);
      await expect(item).toContainText(`¥${yen(pack.price)}`);
      await expect(item).toContainText("税込");
      if (pack.discountPercent > 0) await expect(item).toContainText(`${pack.discountPercent}% お得`);
      else await expect(item).not.toContainText("お得");
    }
    // The badge of docs/product.md#constants exists for some packages: the check above is not vacuous.
    expect(expected.some((pack) => pack.discountPercent > 0)).toBe(true);

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await expect(dialog).toBeVisible();
    await packageLink(dialog, 3_000).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(checkoutUrl(3));
    await expectCheckoutDisclosures(page, { coins: 3_000, price: 3_040 });
    await payButton(page).click();
    await expectPaid(page, { coins: 3_000, balance: 3_000 });
    await expect(page.getByRole("banner").getByTestId("coin-balance")).toHaveText("3,000");

    await expect(otherTab.getByTestId("coin-balance")).toHaveText("3,000");
    expect(await documentWasReloaded(otherTab)).toBe(false);
    await otherTab.close();
    expect(otherTabErrors, "console errors in the second tab").toEqual([]);
  });

  test("double-clicking the purchase button charges once", async ({ page, request }) => {
    const me = await createUser(request, "二度押し");
    await login(page, me.email, "/coins");
    await waitForHydration(page);
    await packageLink(page, 1_000).click();
    await expect(page).toHaveURL(checkoutUrl(2));
    await payButton(page).dblclick();
    await expectPaid(page, { coins: 1_000, balance: 1_000 });
    await expectOnePurchase(page, { amount: 1_000, balanceAfter: 1_000 });
  });
});

test("an unknown package is the fatal 404 of docs/product.md#errors", async ({ page }) => {
  for (const id of ["999", "abc"]) {
    const response = await page.goto(`/coins/checkout/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
    await expect(page.getByTestId("not-found-detail")).toHaveText(`Page Not Found: /coins/checkout/${id}`);
  }
});

test("the checkout needs sign-in and comes back to it afterwards", local(NEEDS.testPayments), async ({ page, request }) => {
  const me = await createUser(request, "ログインして購入");
  await page.goto("/coins/checkout/1");
  await expect(page).toHaveURL("/login?redirectTo=%2Fcoins%2Fcheckout%2F1");
  await waitForHydration(page);
  await page.getByLabel("メールアドレス").fill(me.email);
  await page.getByLabel("パスワード").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
  await expect(page).toHaveURL(checkoutUrl(1));
  await expectCheckoutDisclosures(page, { coins: 500, price: 540 });
});

test.describe("on a phone", local(NEEDS.testPayments), () => {
  test.use({ viewport: { width: 360, height: 640 } });

  test("the signed-in header with a six-digit coin balance fits 360 px", async ({ page, request }) => {
    const me = await createUser(request, "スマホでコイン");
    await buy(request, me.token, 7);
    await buy(request, me.token, 7);
    await login(page, me.email, "/mypage");
    await waitForHydration(page);
    await expect(balanceLink(page)).toBeVisible();
    await expect(page.getByRole("banner").getByTestId("coin-balance")).toHaveText("100,000");
    await expect(page.getByRole("banner").locator("summary")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "メインメニュー" }).getByRole("link", { name: "マイページ" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
