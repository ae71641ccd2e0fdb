import { randomBytes } from "node:crypto";
import { expect, test, waitForHydration } from "./fixtures";

const PASSWORD = "correct-horse-42";

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "with JavaScript disabled", () => {
    test.use({ javaScriptEnabled });

    test("sign up → profile setup → guarded page → sign out → login redirect → back after sign-in", async ({ page }) => {
      const email = `e2e-${randomBytes(5).toString("hex")}@example.jp`;
      const ready = async () => {
        if (javaScriptEnabled) await waitForHydration(page);
      };
      // The page already says the profile is missing, so the browser does not ask /api/auth/me to hear a 404.
      const meNotFound: string[] = [];
      page.on("response", (response) => {
        if (new URL(response.url()).pathname === "/api/auth/me" && response.status() === 404) meNotFound.push(page.url());
      });

      await page.goto("/settings");
      await expect(page).toHaveURL("/login?redirectTo=%2Fsettings");
      await ready();
      await page.getByRole("link", { name: "新規登録" }).last().click();
      await expect(page).toHaveURL("/signup?redirectTo=%2Fsettings");
      await ready();
      await page.getByLabel("メールアドレス").fill(email);
      await page.getByLabel("パスワード").fill(PASSWORD);
      await page.getByRole("button", { name: "登録する" }).click();

      await expect(page.getByRole("heading", { level: 1 })).toHaveText("プロフィールを設定しましょう");
      await ready();
      // The browser's auth state (docs/product.md#states) follows: signed in, profile not set up yet.
      if (javaScriptEnabled) await expect(page.locator("[data-auth-status]")).toHaveAttribute("data-auth-status", "needsProfileSetup");
      await page.getByLabel("表示名").fill("E2Eゲーマー");
      await page.getByLabel("自己紹介").fill("よろしくお願いします");
      await page.getByRole("checkbox", { name: "VALORANT" }).check();
      await page.getByLabel("VALORANTのランク").fill("プラチナ");
      await page.getByRole("button", { name: "保存する" }).click();

      await expect(page).toHaveURL("/settings");
      // The action's flash toast, shown after its redirect with JavaScript or without. Without JavaScript it stays in
      // the page and CSS fades it after 3 s, which a slow machine can spend loading the page: there it is checked in
      // the page, not on the screen.
      const saved = page.getByTestId("toast").filter({ hasText: "プロフィールを保存しました" });
      await (javaScriptEnabled ? expect(saved).toBeVisible() : expect(saved).toBeAttached());
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("設定");
      await expect(page.getByText(email)).toBeVisible();
      if (javaScriptEnabled) await expect(page.locator("[data-auth-status]")).toHaveAttribute("data-auth-status", "signedIn");

      await ready();
      await page.getByRole("banner").getByRole("button", { name: "ログアウト" }).click();
      await expect(page).toHaveURL("/");
      await expect(page.getByRole("banner").getByRole("link", { name: "ログイン" })).toBeVisible();
      if (javaScriptEnabled) await expect(page.locator("[data-auth-status]")).toHaveAttribute("data-auth-status", "signedOut");

      await page.goto("/settings");
      await expect(page).toHaveURL("/login?redirectTo=%2Fsettings");
      await ready();
      await page.getByLabel("メールアドレス").fill(email);
      await page.getByLabel("パスワード").fill(PASSWORD);
      await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
      await expect(page).toHaveURL("/settings");
      await expect(page.getByText("E2Eゲーマー")).toBeVisible();
      expect(meNotFound, "GET /api/auth/me answered 404 on these pages").toEqual([]);
    });

    test("a wrong password shows a Japanese error", async ({ page }) => {
      await page.goto("/login");
      if (javaScriptEnabled) await waitForHydration(page);
      await page.getByLabel("メールアドレス").fill("minato@demo.gamermatch.jp");
      await page.getByLabel("パスワード").fill("wrong-password");
      await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
      await expect(page.getByText("メールアドレスまたはパスワードが正しくありません")).toBeVisible();
    });
  });
}
