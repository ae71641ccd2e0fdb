import type { APIRequestContext } from "@playwright/test";
import { expect, local, login, NEEDS, sellerWithEarnings, test, waitForHydration } from "./fixtures";

const sellerWithEarningsToPay = (request: APIRequestContext) => sellerWithEarnings(request, { sellerName: "振込申請する販売者", title: "振込申請のテスト用チケット" });

test.describe("with JavaScript disabled", local(NEEDS.testPayments, NEEDS.demoData), () => {
  test.use({ javaScriptEnabled: false });

  test("a seller requests a payout through the form and its confirmation, and sees it in the history, masked", async ({ page, request }) => {
    test.slow();
    const seller = await sellerWithEarningsToPay(request);
    await login(page, seller.email, "/mypage");
    await page.getByRole("link", { name: /売上の振込申請/ }).click();
    await expect(page).toHaveURL(/\/settings\/store\/transfer\?key=/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("売上の振込申請");
    await expect(page.getByTestId("earned-balance")).toHaveText("1,600コイン");
    await expect(page.getByText("購入したコインは振込申請できません")).toBeVisible();
    await expect(page.getByText("まだ振込申請はありません。")).toBeVisible();

    await page.getByLabel("申請するコイン").fill("1000");
    await page.getByLabel("銀行名").fill("ゲーマー銀行");
    await page.getByLabel("支店名").fill("渋谷支店");
    await page.getByLabel("口座種別").selectOption("ordinary");
    await page.getByLabel("口座番号").fill("7654321");
    await page.getByLabel("口座名義（カタカナ）").fill("ｹﾞｰﾏｰ ﾊﾅｺ");
    await page.getByRole("button", { name: "確認へ進む" }).click();

    const confirmation = page.getByRole("region", { name: "申請内容の確認" });
    await expect(confirmation).toContainText("1,000コイン");
    await expect(confirmation).toContainText("1,000円");
    await expect(confirmation).toContainText("普通 ****321");
    await expect(confirmation).toContainText("ゲーマー ハナコ");
    await expect(confirmation).not.toContainText("7654321");
    await confirmation.getByRole("button", { name: "申請する" }).click();

    await expect(page).toHaveURL(/\/settings\/store\/transfer\?key=/);
    await expect(page.getByTestId("earned-balance")).toHaveText("600コイン");
    const history = page.getByRole("table", { name: "振込申請の履歴（新しい順）" });
    const row = history.getByRole("row").nth(1);
    await expect(row).toContainText("1,000コイン");
    await expect(row).toContainText("1,000円");
    await expect(row).toContainText("ゲーマー銀行 渋谷支店 普通 ****321");
    await expect(row).toContainText("申請中");
    await expect(page.locator("body")).not.toContainText("7654321");
  });
});

test("with JavaScript: the form checks fields as they are left, goes back from the confirmation with what was entered, and requests once", local(NEEDS.testPayments, NEEDS.demoData), async ({ page, request }) => {
  test.slow();
  const seller = await sellerWithEarningsToPay(request);
  await login(page, seller.email, "/mypage");
  await page.getByRole("link", { name: /売上の振込申請/ }).click();
  await expect(page).toHaveURL(/\/settings\/store\/transfer\?key=/);
  await waitForHydration(page);

  const coins = page.getByLabel("申請するコイン");
  await coins.fill("500");
  await coins.blur();
  await expect(page.getByText("1,000コイン以上で申請してください")).toBeVisible();
  await coins.fill("1200");
  await page.getByLabel("銀行名").fill("ゲーマー銀行");
  await page.getByLabel("支店名").fill("梅田支店");
  await page.getByLabel("口座種別").selectOption("checking");
  await page.getByLabel("口座番号").fill("１１１２２２３");
  await page.getByLabel("口座名義（カタカナ）").fill("げーまー");
  await page.getByLabel("口座名義（カタカナ）").blur();
  await expect(page.getByText("口座名義はカタカナで入力してください")).toBeVisible();
  await page.getByLabel("口座名義（カタカナ）").fill("ゲーマー");
  await page.getByRole("button", { name: "確認へ進む" }).click();

  const confirmation = page.getByRole("region", { name: "申請内容の確認" });
  await expect(confirmation).toContainText("当座 ****223");
  await confirmation.getByRole("button", { name: "入力内容を修正する" }).click();
  await expect(page.getByLabel("支店名")).toHaveValue("梅田支店");
  await page.getByRole("button", { name: "確認へ進む" }).click();
  await confirmation.getByRole("button", { name: "申請する" }).click();

  await expect(page.getByTestId("earned-balance")).toHaveText("400コイン");
  const history = page.getByRole("table", { name: "振込申請の履歴（新しい順）" });
  await expect(history.getByRole("row")).toHaveCount(2);
  await expect(history).toContainText("梅田支店 当座 ****223");
  await expect(history).toContainText("申請中");
});
