import { expect, test, waitForHydration } from "./fixtures";

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the inquiry form shows server-side field errors, then stores the inquiry", async ({ page }) => {
    await page.goto("/inquiry");
    // Whitespace passes the browser's own `required` check but not the server's.
    await page.getByLabel("お名前").fill("   ");
    await page.getByLabel("メールアドレス").fill("taro@example.jp");
    await page.getByLabel("お問い合わせの種類").selectOption({ label: "不具合の報告" });
    await page.getByLabel("お問い合わせ内容").fill("   ");
    await page.getByRole("button", { name: "送信する" }).click();

    await expect(page).toHaveURL("/inquiry");
    await expect(page.getByText("入力してください")).toHaveCount(2);
    await expect(page.getByLabel("お名前")).toHaveAttribute("aria-invalid", "true");
    // What was valid is kept.
    await expect(page.getByLabel("メールアドレス")).toHaveValue("taro@example.jp");

    await page.getByLabel("お名前").fill("山田 太郎");
    await page.getByLabel("お問い合わせ内容").fill("チケットの予約画面でエラーが出ます。");
    await page.getByRole("button", { name: "送信する" }).click();
    await expect(page).toHaveURL("/inquiry?sent=1");
    await expect(page.getByRole("status")).toContainText("お問い合わせを受け付けました");
  });
});

test("with JavaScript the form validates in the browser before sending", async ({ page }) => {
  await page.goto("/inquiry");
  await waitForHydration(page);
  let posted = false;
  page.on("request", (request) => {
    if (request.method() === "POST") posted = true;
  });
  await page.getByRole("button", { name: "送信する" }).click();
  await expect(page.getByText("入力してください")).toHaveCount(3);
  await expect(page.getByText("選択してください").last()).toBeVisible();
  expect(posted).toBe(false);

  await page.getByLabel("お名前").fill("佐藤 花子");
  await page.getByLabel("メールアドレス").fill("hanako@");
  await page.getByLabel("メールアドレス").blur();
  await expect(page.getByText("メールアドレスの形式が正しくありません")).toBeVisible();
  await page.getByLabel("メールアドレス").fill("hanako@example.jp");
  await page.getByLabel("お問い合わせの種類").selectOption("coins");
  await page.getByLabel("お問い合わせ内容").fill("コインの残高について教えてください。");
  await page.getByRole("button", { name: "送信する" }).click();
  await expect(page.getByRole("status")).toContainText("お問い合わせを受け付けました");
  await expect(page).toHaveURL("/inquiry?sent=1");
});
