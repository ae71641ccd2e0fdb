import type { Browser, Page } from "@playwright/test";
import { E2E_PASSWORD, expect, local, login, NEEDS, test, waitForHydration } from "./fixtures";
import { atDesktop, matrix } from "./matrix";

/**
 * 「ログイン中の端末」 on /settings/security, with JavaScript and without it, on a phone (360 px) and a desktop
 * (1280 px): one account signed in from this browser, from a second browser (an iPhone's Safari, by its User-Agent)
 * and from an app (an Android's Firefox); this browser lists the three, signs the app out by its own 「ログアウト」,
 * lists the two devices left, then 「この端末以外からログアウト」, and the second browser's next page is the login
 * page.
 */

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0";

const VIEWPORTS = [
  { name: "phone", viewport: { width: 360, height: 740 } },
  { name: "desktop", viewport: { width: 1280, height: 800 } },
] as const;

/** A new account with a profile, signed up through the HTTP API as an Android phone's Firefox: its first device. */
async function signUpOnAndroid(page: Page) {
  const email = `e2e-sessions-${Math.random().toString(16).slice(2, 12)}@example.jp`;
  const signup = await page.request.post("/auth/v1/signup", { data: { email, password: E2E_PASSWORD }, headers: { "User-Agent": ANDROID } });
  expect(signup.ok()).toBe(true);
  const { access_token: token } = (await signup.json()) as { access_token: string };
  const profile = await page.request.post("/api/user/profile", { data: { displayName: "端末の持ち主" }, headers: { Authorization: `Bearer ${token}` } });
  expect(profile.ok()).toBe(true);
  return email;
}

/** A second browser of the same person, an iPhone's Safari by its User-Agent, at the test's width and JavaScript. */
async function secondBrowser(browser: Browser, viewport: { width: number; height: number }, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ viewport, javaScriptEnabled, userAgent: IPHONE, locale: "ja-JP", timezoneId: "Asia/Tokyo", reducedMotion: "reduce" });
  return { context, page: await context.newPage() };
}

for (const javaScript of [true, false]) {
  for (const { name, viewport } of VIEWPORTS) {
    test.describe(`${javaScript ? "with JavaScript" : "without JavaScript"}, ${name} (${viewport.width} px)`, matrix(atDesktop(viewport), local(NEEDS.embeddedAuth)), () => {
      test.use({ javaScriptEnabled: javaScript, viewport });
      // Two browsers signing in, and five pages each checked with axe-core (without JavaScript, in a copy): 46 s to
      // 1.7 min here with two workers on two cores, past the 90 s default at the slowest. 150 s stays well above.
      test.describe.configure({ timeout: 150_000 });

      test("the devices listed, one signed out by its 「ログアウト」, then every other by 「この端末以外からログアウト」", async ({ page, browser }) => {
        const email = await signUpOnAndroid(page);
        const iphone = await secondBrowser(browser, viewport, javaScript);
        try {
          await login(iphone.page, email, "/settings");
          await login(page, email, "/settings");
          await page.getByRole("navigation", { name: "アカウント" }).getByRole("link", { name: /セキュリティ/ }).click();
          await expect(page).toHaveURL("/settings/security");
          await expect(page.getByRole("heading", { level: 1 })).toHaveText("セキュリティ");

          const list = page.getByRole("list", { name: "ログイン中の端末" });
          const rows = list.getByRole("listitem");
          await expect(rows).toHaveCount(3);
          // This browser first, marked and without a 「ログアウト」 of its own (the header's is for that).
          await expect(rows.first()).toContainText("この端末");
          await expect(rows.first().getByRole("button")).toHaveCount(0);
          await expect(rows.filter({ hasText: "Safari · iPhone" })).toHaveCount(1);
          await expect(rows.filter({ hasText: "Firefox · Android" })).toContainText(/ログイン\s*\d{4}\/\d\d\/\d\d \d\d:\d\d/);
          const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(sideways, "the page scrolls sideways").toBeLessThanOrEqual(0);

          if (javaScript) await waitForHydration(page);
          // Each 「ログアウト」 says which device it is for, after the word it shows.
          await page.getByRole("button", { name: /^ログアウト\s*：Firefox · Android/ }).click();
          const toast = (text: string) => page.getByTestId("toast").filter({ hasText: text });
          await (javaScript ? expect(toast("選んだ端末をログアウトしました")).toBeVisible() : expect(toast("選んだ端末をログアウトしました")).toBeAttached());
          await expect(page).toHaveURL("/settings/security");
          await expect(rows).toHaveCount(2);
          await expect(rows.filter({ hasText: "Firefox · Android" })).toHaveCount(0);

          if (javaScript) await waitForHydration(page);
          await page.getByRole("button", { name: "この端末以外からログアウト" }).click();
          await (javaScript ? expect(toast("この端末以外のすべての端末からログアウトしました")).toBeVisible() : expect(toast("この端末以外のすべての端末からログアウトしました")).toBeAttached());
          await expect(rows).toHaveCount(1);
          await expect(rows.first()).toContainText("この端末");
          await expect(page.getByText("ほかにログインしている端末はありません。")).toBeVisible();
          await expect(page.getByRole("button", { name: "この端末以外からログアウト" })).toHaveCount(0);

          // The iPhone's next page: signed out, to the login page that comes back there.
          await iphone.page.goto("/settings/security");
          await expect(iphone.page).toHaveURL("/login?redirectTo=%2Fsettings%2Fsecurity");
          // This browser is still signed in.
          await page.reload();
          await expect(page.getByRole("heading", { level: 1 })).toHaveText("セキュリティ");
        } finally {
          await iphone.context.close();
        }
      });
    });
  }
}
