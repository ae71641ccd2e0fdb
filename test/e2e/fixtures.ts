import { test as base, expect } from "@playwright/test";

/**
 * Every page must run clean: no uncaught errors and no console errors, which is also how a
 * Content-Security-Policy violation shows up. Tests that provoke an error on purpose list it.
 */
export const test = base.extend<{ allowedConsoleError: RegExp | null }>({
  allowedConsoleError: [null, { option: true }],
  page: async ({ page, allowedConsoleError }, use) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      // A 4xx document (the 404 page, a form answered 400) logs its status; the page is what the test checks.
      if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
      if (allowedConsoleError?.test(text)) return;
      problems.push(`console: ${text}`);
    });
    await use(page);
    expect(problems, "console errors on the page").toEqual([]);
  },
});

export { expect };

/** Sets a marker on `window` that survives client-side navigation but not a full page load. */
export async function markDocument(page: import("@playwright/test").Page) {
  await page.evaluate(() => ((window as unknown as { __gmMarker: boolean }).__gmMarker = true));
}

export async function documentWasReloaded(page: import("@playwright/test").Page) {
  return page.evaluate(() => !(window as unknown as { __gmMarker?: boolean }).__gmMarker);
}

/** Remix sets this once the page is interactive. */
export async function waitForHydration(page: import("@playwright/test").Page) {
  await page.waitForFunction(() => (window as unknown as { __remixRouter?: unknown }).__remixRouter !== undefined);
}

export const E2E_PASSWORD = "correct-horse-42";

/** A new account with a profile, made through the HTTP API (the UI flow has its own test). */
export async function createUser(request: import("@playwright/test").APIRequestContext, displayName: string) {
  const email = `e2e-${Math.random().toString(16).slice(2, 12)}@example.jp`;
  const signup = await request.post("/auth/v1/signup", { data: { email, password: E2E_PASSWORD } });
  expect(signup.ok()).toBe(true);
  const { access_token: token, user } = (await signup.json()) as { access_token: string; user: { id: string } };
  const profile = await request.post("/api/user/profile", { data: { displayName }, headers: { Authorization: `Bearer ${token}` } });
  expect(profile.ok()).toBe(true);
  return { id: user.id, email, token, displayName };
}

/** Signs the page in through the login form. */
export async function login(page: import("@playwright/test").Page, email: string, redirectTo = "/mypage") {
  await page.goto(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "ログイン" }).last().click();
  await page.waitForURL(redirectTo);
}
