import { randomBytes } from "node:crypto";
import { expect, local, NEEDS, test } from "./fixtures";
import { waitForMail } from "./mail";

const OLD_PASSWORD = "correct-horse-42";
const NEW_PASSWORD = "battery-staple-77";

test.describe("with JavaScript disabled", local(NEEDS.mail), () => {
  test.use({ javaScriptEnabled: false });
  // Eleven pages, each checked with axe-core, and a mail through SMTP: 21 s alone on the 2-core runner, and past the
  // 30 s default (it timed out on its last step) while the Discord flows ran beside it. 60 s is well above both.
  test.describe.configure({ timeout: 60_000 });

  test("a forgotten password: from /login through the mailed link to signed in with the new password", async ({ page }) => {
    const email = `e2e-recover-${randomBytes(5).toString("hex")}@example.jp`;
    const signedUp = await page.request.post("/auth/v1/signup", { data: { email, password: OLD_PASSWORD } });
    expect(signedUp.ok()).toBe(true);

    await page.goto("/login");
    await page.getByRole("link", { name: "パスワードをお忘れの方" }).click();
    await expect(page).toHaveURL("/forgot-password");
    await page.getByLabel("メールアドレス").fill(email);
    await page.getByRole("button", { name: "再設定メールを送る" }).click();
    await expect(page).toHaveURL("/forgot-password?sent=1");
    await expect(page.getByRole("status")).toContainText("パスワード再設定用のメールを送信しました");

    // The mail, as the SMTP server received it: its one link leads back to this site.
    const mail = await waitForMail(email);
    expect(mail.subject).toBe("【GamerMatch】パスワードの再設定");
    const link = new URL(mail.links[0]!);
    await page.goto(link.pathname + link.search);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("パスワードの再設定");
    await page.getByRole("button", { name: "パスワードを再設定する" }).click();

    await expect(page).toHaveURL("/reset-password");
    await page.getByRole("textbox", { name: /^新しいパスワード(必須)?$/ }).fill(NEW_PASSWORD);
    await page.getByLabel("新しいパスワード（確認）").fill("not-the-same-one");
    await page.getByRole("button", { name: "パスワードを設定する" }).click();
    await expect(page.getByText("確認用のパスワードが一致しません")).toBeVisible();
    await page.getByRole("textbox", { name: /^新しいパスワード(必須)?$/ }).fill(NEW_PASSWORD);
    await page.getByLabel("新しいパスワード（確認）").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "パスワードを設定する" }).click();
    // In the page (CSS fades it after 3 s, which a slow machine can spend loading the page).
    await expect(page.getByTestId("toast").filter({ hasText: "パスワードを変更しました" })).toBeAttached();

    // A new browser session: the old password is refused, the new one signs in.
    await page.context().clearCookies();
    await page.goto("/login");
    await page.getByLabel("メールアドレス").fill(email);
    await page.getByLabel("パスワード").fill(OLD_PASSWORD);
    await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
    await expect(page.getByText("メールアドレスまたはパスワードが正しくありません")).toBeVisible();
    await page.getByLabel("メールアドレス").fill(email);
    await page.getByLabel("パスワード").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
    // Signed in: the account has no profile yet, so the hub sends it to set one up.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("プロフィールを設定しましょう");

    // The link again: refused, with the way to ask for a new one.
    await page.goto(link.pathname + link.search);
    await page.getByRole("button", { name: "パスワードを再設定する" }).click();
    await expect(page.getByText("リンクが無効か、有効期限が切れています")).toBeVisible();
    await expect(page.getByRole("link", { name: "再設定メールをもう一度送る" })).toBeVisible();
  });
});
