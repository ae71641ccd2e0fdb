import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { axeViolations, createUser, E2E_PASSWORD, expect, local, NEEDS, test, waitForHydration } from "./fixtures";
import { mailsTo } from "./mail";
import { atDesktop, matrix } from "./matrix";

/**
 * 二段階認証 (ADR 064) in a browser, with JavaScript and without it, on a phone (360 px) and a desktop (1280 px): a new
 * gamer sets up an authenticator app on /settings/security from the key the page shows and its first code, and gets ten
 * recovery codes; the next sign-in with the password owes the app's code on /login/mfa, and so does a visit to the bank
 * details page meanwhile; the code signs in and goes on where the gamer was headed; the sign-in after that spends a
 * recovery code instead, which turns the second step off.
 *
 * One flow per width and JavaScript setting goes through every step (ADR 061: the suite's cost is its page loads). The
 * fixture checks each new address with axe-core; the states a form's answer shows at the same address (the QR code,
 * the recovery codes, the opened recovery form) are checked here.
 */

const VIEWPORTS = [
  { name: "phone", viewport: { width: 360, height: 740 } },
  { name: "desktop", viewport: { width: 1280, height: 800 } },
] as const;

const TRANSFER = "/settings/store/transfer";

/**
 * The app's code `steps` periods from now, as an authenticator app shows it. A step's code is accepted once per app, and
 * the server takes one step either side of its own: the code after the one the enrolment used is a later step, whenever
 * it is given.
 */
const codeOf = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: Date.now() + steps * 30_000 });

/**
 * The password form on /login (opened unless the page is there already), which sends an account with an app on to
 * /login/mfa, where `redirectTo` rides along.
 */
async function signInWithPassword(page: Page, email: string, redirectTo: string, javaScript: boolean) {
  const login = `/login?${new URLSearchParams({ redirectTo })}`;
  if (new URL(page.url()).href !== new URL(login, page.url()).href) await page.goto(login);
  if (javaScript) await waitForHydration(page);
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
  await expect(page).toHaveURL(`/login/mfa?${new URLSearchParams({ redirectTo })}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("二段階認証");
  if (javaScript) await waitForHydration(page);
}

/** ログアウト where the page's width shows it: the header's on a desktop, the header's menu on a phone. */
async function signOut(page: Page, phone: boolean) {
  if (phone) {
    await page.locator("header summary", { hasText: "メニュー" }).click();
    await page.getByRole("navigation", { name: "その他のメニュー" }).getByRole("button", { name: "ログアウト" }).click();
  } else {
    await page.getByRole("banner").getByRole("button", { name: "ログアウト" }).click();
  }
  await expect(page).toHaveURL("/");
}

async function expectNoViolations(page: Page, javaScriptEnabled: boolean, what: string) {
  expect(await axeViolations(page, { javaScriptEnabled }), `serious or critical accessibility violations (axe-core) ${what}`).toEqual([]);
}

for (const javaScript of [true, false]) {
  for (const { name, viewport } of VIEWPORTS) {
    const phone = viewport.width === 360;
    test.describe(`${javaScript ? "with JavaScript" : "without JavaScript"}, ${name} (${viewport.width} px)`, matrix(atDesktop(viewport), local(NEEDS.mail)), () => {
      test.use({ javaScriptEnabled: javaScript, viewport });
      // About fifteen pages and two or three more states, each checked with axe-core (without JavaScript, in a copy of
      // the page): 35–90 s a flow on the 2-core machine with two workers and another Playwright run beside them, and up
      // to 165 s at a load average of 13.
      test.describe.configure({ timeout: 240_000 });
      // The recovery form opened is checked with JavaScript on a phone and without it on a desktop; the other two
      // leave the code page by its own ログアウト first, as someone who signed in with the wrong account would.
      const paired = javaScript === phone;

      test("set up an app → the next sign-in owes its code, the bank details page too → the code goes on; then a recovery code turns it off", async ({ page }) => {
        const ready = async () => {
          if (javaScript) await waitForHydration(page);
        };
        const user = await createUser(page.request, "二段階のゲーマー");
        // Signed in by posting the login form (page.request shares the page's cookies): /login has its own flows.
        const signedIn = await page.request.post("/login", { form: { email: user.email, password: E2E_PASSWORD, redirectTo: "/mypage" }, maxRedirects: 0 });
        expect(signedIn.headers()["location"]).toBe("/mypage");

        // Set up: the QR code drawn on the server, the key as text in groups of four, then the app's first code.
        await page.goto("/settings/security");
        await expect(page.getByTestId("two-step-status")).toHaveText("未設定");
        await ready();
        await page.getByLabel("端末の名前（任意）").fill("テスト用スマホ");
        await page.getByRole("button", { name: "認証アプリを設定する" }).click();
        const key = page.getByTestId("totp-secret");
        const secret = (await key.getAttribute("data-secret"))!;
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        await expect(key).toHaveText(secret.match(/.{4}/g)!.join(" "));
        await expect(page.getByRole("img", { name: "認証アプリに登録するためのQRコード" }).locator("svg")).toBeVisible();
        await expectNoViolations(page, javaScript, "with the QR code shown");
        await page.getByLabel("確認コード（6桁）").fill(codeOf(secret));
        await page.getByRole("button", { name: "確認して有効にする" }).click();

        const shown = page.getByTestId("recovery-codes");
        await expect(shown.getByRole("listitem")).toHaveCount(10);
        const codes = await shown.getByRole("listitem").allTextContents();
        for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
        expect(new Set(codes).size).toBe(10);
        await expect(shown.getByRole("link", { name: "テキストファイルで保存" })).toHaveAttribute("href", new RegExp(`^data:text/plain;charset=utf-8,.*${codes[9]}`));
        await expect(page.getByTestId("two-step-status")).toHaveText("有効");
        await expect(page.getByRole("list", { name: "登録済みの認証アプリ" })).toContainText("テスト用スマホ");
        await expectNoViolations(page, javaScript, "with the recovery codes shown");
        await ready();
        await signOut(page, phone);

        // The password alone is half a sign-in: the code page, where the field asks the phone for a one-time code.
        await signInWithPassword(page, user.email, "/mypage", javaScript);
        const code = page.getByLabel("確認コード（6桁）");
        await expect(code).toHaveAttribute("autocomplete", "one-time-code");
        await expect(code).toHaveAttribute("inputmode", "numeric");
        if (javaScript) await expect(page.locator("[data-auth-status]")).toHaveAttribute("data-auth-status", "signedOut");
        // Money needs both steps: the bank details page sends the half-signed-in session to the code page too.
        await page.goto(TRANSFER);
        await expect(page).toHaveURL(`/login/mfa?${new URLSearchParams({ redirectTo: TRANSFER })}`);
        await ready();
        await page.getByLabel("確認コード（6桁）").fill(codeOf(secret, 1));
        await page.getByRole("button", { name: "確認してログイン" }).click();
        await expect(page).toHaveURL((url) => url.pathname === TRANSFER);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("売上の振込申請");
        if (javaScript) await expect(page.locator("[data-auth-status]")).toHaveAttribute("data-auth-status", "signedIn");
        await ready();
        await signOut(page, phone);

        // A lost phone: a recovery code signs in and turns the second step off.
        await signInWithPassword(page, user.email, "/mypage", javaScript);
        if (!paired) {
          await page.getByRole("button", { name: "ログアウトして別のアカウントでログイン" }).click();
          await expect(page).toHaveURL("/login");
          await page.goto("/mypage");
          await expect(page, "signed out, not owing a code").toHaveURL("/login?redirectTo=%2Fmypage");
          await signInWithPassword(page, user.email, "/mypage", javaScript);
        }
        await page.getByText("認証アプリを使えない場合").click();
        await page.getByLabel("リカバリーコード").fill(codes[4]!);
        if (paired) await expectNoViolations(page, javaScript, "with the recovery code's form open");
        await page.getByRole("button", { name: "リカバリーコードでログイン" }).click();
        await expect(page).toHaveURL("/settings/security");
        // The flashed toast is in the page either way; without JavaScript CSS fades it, which a slow machine can outlast.
        const toast = page.getByTestId("toast").filter({ hasText: "リカバリーコードでログインしました" });
        await (javaScript ? expect(toast).toBeVisible() : expect(toast).toBeAttached());
        await expect(page.getByTestId("two-step-status")).toHaveText("未設定");
        await expect(page.getByRole("button", { name: "認証アプリを設定する" })).toBeVisible();

        // The owner hears of both: the app set up, and a recovery code used.
        await expect
          .poll(async () => (await mailsTo(user.email)).map((mail) => mail.subject).sort(), { message: `the mails to ${user.email}`, timeout: 30_000 })
          .toEqual(["【GamerMatch】リカバリーコードが使用されました", "【GamerMatch】二段階認証を設定しました"].sort());
      });
    });
  }
}
