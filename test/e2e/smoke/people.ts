// The smoke set's people: made through open sign-up only, as anyone on a deployment could, with addresses
// no earlier run used, and gone again afterwards (退会) even when the flow failed half-way.
import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { E2E_PASSWORD, expect, test as base, waitForHydration } from "../fixtures";

export interface Person {
  email: string;
  displayName: string;
  /** Set once the person has left (退会), so the clean-up does not try again. */
  left: boolean;
}

/** A fresh address: the run's time and random bytes, at a reserved domain no mail is delivered to. */
export function freshEmail(label: string) {
  return `smoke-${label.toLowerCase()}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@example.jp`;
}

/**
 * Signs up through /signup and sets up the profile, as a newcomer does. Fails with the reason when the deployment
 * asks to confirm the address by mail first (AUTH_CONFIRM_EMAIL): the smoke set needs open sign-up.
 */
export async function signUp(page: Page, person: Person, { javaScript }: { javaScript: boolean }) {
  await page.goto("/signup");
  if (javaScript) await waitForHydration(page);
  await page.getByLabel("メールアドレス").fill(person.email);
  await page.getByLabel("パスワード").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "登録する" }).click();
  await page.waitForURL((url) => url.pathname !== "/signup" || url.searchParams.has("sent"));
  expect(new URL(page.url()).searchParams.get("sent"), "this deployment asks to confirm the address by mail: the smoke set needs open sign-up").toBeNull();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("プロフィールを設定しましょう");
  if (javaScript) await waitForHydration(page);
  await page.getByLabel("表示名").fill(person.displayName);
  await page.getByLabel("自己紹介").fill("スモークテストのアカウントです。すぐに退会します。");
  await page.getByRole("button", { name: "保存する" }).click();
  await expect(page).toHaveURL("/mypage");
  await expect(page.getByTestId("toast").filter({ hasText: "プロフィールを保存しました" })).toBeVisible();
}

/** Leaves the service (退会) from /settings/account, signed in: the page's own form and its confirmation box. */
export async function leave(page: Page, person: Person, { javaScript }: { javaScript: boolean }) {
  await page.goto("/settings/account");
  await expect(page.getByRole("heading", { level: 1, name: "退会" })).toBeVisible();
  if (javaScript) await waitForHydration(page);
  await page.getByLabel("現在のパスワード").fill(E2E_PASSWORD);
  await page.getByRole("checkbox", { name: /退会します/ }).check();
  await page.getByRole("button", { name: "退会する" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByTestId("toast").filter({ hasText: "退会しました" })).toBeVisible();
  person.left = true;
}

/** Signs in through the login form (any page that needs it sends there) and waits for `to`. */
export async function signIn(page: Page, person: Person, to: string, { javaScript }: { javaScript: boolean }) {
  await page.goto(`/login?${new URLSearchParams({ redirectTo: to })}`);
  if (javaScript) await waitForHydration(page);
  await page.getByLabel("メールアドレス").fill(person.email);
  await page.getByLabel("パスワード").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
  await expect(page).toHaveURL(to);
}

/**
 * Whoever the flow made and did not see leave: signed in with a browser context of its own and taken through the same
 * 退会 form with its fields posted, so a failed run leaves no account behind either.
 */
async function leaveQuietly(browser: Browser, baseURL: string | undefined, person: Person) {
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const request = context.request;
    const signedIn = await request.post("/login", { form: { email: person.email, password: E2E_PASSWORD, redirectTo: "/settings/account" }, maxRedirects: 0 });
    if (signedIn.status() !== 302) return;
    const left = await request.post("/settings/account", { form: { password: E2E_PASSWORD, confirm: "on" }, maxRedirects: 0 });
    if (left.status() !== 302) console.warn(`smoke clean-up: ${person.email} could not leave (${left.status()})`);
  } catch (error) {
    console.warn(`smoke clean-up: ${person.email}: ${String(error)}`);
  } finally {
    await context?.close();
  }
}

/** The axe-checked `test` of ../fixtures with `person(label)`: a new Person whose account is gone after the test. */
export const test = base.extend<{ person: (label: string) => Person }>({
  person: async ({ browser, baseURL }, use) => {
    const people: Person[] = [];
    const suffix = randomBytes(3).toString("hex");
    await use((label) => {
      const person = { email: freshEmail(label), displayName: `スモーク${label}${suffix}`, left: false };
      people.push(person);
      return person;
    });
    for (const person of people) if (!person.left) await leaveQuietly(browser, baseURL, person);
  },
});

export { expect };
