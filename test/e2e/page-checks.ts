// What the page sweeps check of one page (phone-sweep.spec.ts at 360 px, and the repeats: first-load.spec.ts's
// /login/mfa, accessibility.spec.ts at 1280 px, phone-nav.spec.ts without JavaScript), and the pages they visit.
import { expect, type Page } from "@playwright/test";
import { FIRST_LOAD_BUDGET_KB, kb, largest, sizesOf, type FetchedScript, type PageLoad } from "../support/first-load.mjs";
import { SCREEN_PAGES } from "./scenes";

export type State = "signedOut" | "signedIn";

/** A page of a sweep: `screen` when it is one of docs/product.md#screens (its weight and its bar are checked too). */
export type SweepPage = { path: string; screen: boolean };

/** Explore with no filter, with a game's filter, and with a search that finds nothing (its "remove this filter" chips). */
const EXPLORE_FILTERED = ["/explore?game=apex-legends", "/explore?q=%E8%A6%8B%E3%81%A4%E3%81%8B%E3%82%89%E3%81%AA%E3%81%84%E6%A4%9C%E7%B4%A2%E8%AA%9E"];

/** Pages the accessibility checks visit beyond the screens: the other forms, an unknown address and the scene's own. */
const MORE_PAGES: Record<State, string[]> = {
  signedOut: ["/forgot-password", "/auth/confirm?token_hash=abc&type=recovery", "/no-such-page", ...EXPLORE_FILTERED],
  signedIn: [
    "/settings/password",
    "/settings/email",
    "/settings/account",
    "/settings/notifications",
    "/settings/reports",
    "/posts/new",
    "/no-such-page",
    ...EXPLORE_FILTERED,
    "/u/{uid}/gallery?photo={postId}",
    "/u/{uid}/subscribe",
    "/report?type=user&id={uid}",
  ],
};

/** Every page a sweep visits in `state`, the screens first, with the scene's `{names}` still in them. */
export function sweepPages(state: State): SweepPage[] {
  const screens = SCREEN_PAGES.filter((entry) => (state === "signedIn" ? entry.signedIn : entry.signedOut)).map((entry) => ({ path: entry.path, screen: true }));
  return [...screens, ...MORE_PAGES[state].map((path) => ({ path, screen: false }))];
}

/** Items in groups of `size`, so Playwright (fullyParallel) spreads the groups over its workers. */
export const chunks = <T,>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/**
 * 二段階認証's pages (ADR 064) draw the QR code on the server and leave codes to it: no QR or TOTP library may reach the
 * browser. Each is known by words its code keeps through minifying (qrcode's errors, otpauth's URI).
 */
const TWO_STEP_PAGES: Record<string, RegExp> = { "/settings/security": /^_settings\.settings\.security-/, "/login/mfa": /^_default\.login_\.mfa-/ };
const SERVER_LIBRARIES = { qrcode: ["too big to be stored in a QR Code", "BitMatrix size must be defined"], otpauth: ["otpauth://totp/", "otpauth://hotp/"] };

async function serverLibrariesIn(scripts: FetchedScript[]) {
  const found: string[] = [];
  for (const script of scripts) {
    const text = await (await fetch(script.url)).text();
    for (const [library, marks] of Object.entries(SERVER_LIBRARIES)) if (marks.some((mark) => text.includes(mark))) found.push(`${library} in ${script.file}`);
  }
  return found;
}

/**
 * The first-load budget (ADR 024) of one first visit (firstVisit's `load`): the page itself answered, and the gzip'd
 * JavaScript it fetched is within the state's budget, counted as `npm run bench:first-load` counts it.
 */
export async function checkFirstLoad(page: Page, load: PageLoad, state: State, path: string) {
  const label = state === "signedIn" ? "signed in" : "signed out";
  const budgetKb = FIRST_LOAD_BUDGET_KB[state];
  // A guard's redirect to /login or an error page would measure another page.
  expect.soft({ path: new URL(page.url()).pathname, status: load.status }, `${path} ${label} is the page itself`).toEqual({ path: path.split("?")[0], status: 200 });

  // What every page runs is in the count: a recording that missed the page's own scripts would pass any budget.
  const files = load.scripts.map((script) => script.file);
  for (const shared of [/^entry\.client-/, /^framework-/, /^shell-/]) expect.soft(files.some((file) => shared.test(file)), `${path} ${label} fetched ${shared.source}`).toBe(true);

  const sized = await sizesOf(load.scripts);
  const gzip = sized.reduce((sum, script) => sum + script.gzip, 0);
  const biggest = sized.length > 4 ? `${largest(sized, 4)}, … of ${sized.length} files` : largest(sized, 4);
  expect.soft(gzip, `${path} ${label}: ${kb(gzip)} KB gz, budget ${budgetKb} KB (${biggest})`).toBeLessThanOrEqual(budgetKb * 1024);

  const ownModule = TWO_STEP_PAGES[path];
  if (ownModule) {
    // Its own route module among them, or the search below would prove nothing.
    expect.soft(files.some((file) => ownModule.test(file)), `${path} ${label} fetched its route module`).toBe(true);
    expect.soft(await serverLibrariesIn(load.scripts), `${path} ${label}: server-only libraries in the browser`).toEqual([]);
  }
}

/** The page is wider than the screen (it would scroll sideways): what sticks out past the right edge, or nothing. */
export async function sidewaysScroll(page: Page, path: string) {
  const { scrollWidth, width, wide } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    width: document.documentElement.clientWidth,
    wide: [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .slice(0, 3)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}">`),
  }));
  return scrollWidth > width ? [`scrolls sideways on ${path}: ${scrollWidth} px wide at ${width} px (${wide.join(", ")})`] : [];
}

export const bar = (page: Page) => page.getByRole("navigation", { name: "メインメニュー" });
export const menuButton = (page: Page) => page.locator("header summary", { hasText: "メニュー" });
export const menu = (page: Page) => page.getByRole("navigation", { name: "その他のメニュー" });

/** Where the phone's bar at the bottom leads, for a member and for a visitor (whose チケット is in the menu). */
export const BAR: Record<State, { label: string; path: string }[]> = {
  signedIn: [
    { label: "さがす", path: "/explore" },
    { label: "チケット", path: "/tickets" },
    { label: "チャット", path: "/chat" },
    { label: "マイページ", path: "/mypage" },
  ],
  signedOut: [
    { label: "さがす", path: "/explore" },
    { label: "フィード", path: "/feed" },
    { label: "ログイン", path: "/login" },
  ],
};

/**
 * From the page `from` shows: every destination of the bar is there and would take the tap (a trial click:
 * Playwright's checks that it is visible, still, enabled and not covered, without the click), a visitor's チケット two
 * taps away in the menu; then the `index`th destination (a different one from page to page) is followed.
 */
export async function checkBar(page: Page, state: State, from: string, index: number) {
  const destinations = BAR[state];
  for (const destination of destinations) {
    const link = bar(page).getByRole("link", { name: destination.label });
    await expect(link, `${destination.label} on ${from}`).toHaveAttribute("href", destination.path);
    await link.click({ trial: true });
  }
  if (state === "signedOut") {
    await menuButton(page).click();
    await expect(menu(page).getByRole("link", { name: "チケット" })).toHaveAttribute("href", "/tickets");
    await menu(page).getByRole("link", { name: "チケット" }).click({ trial: true });
  }
  const destination = destinations[index % destinations.length]!;
  await bar(page).getByRole("link", { name: destination.label }).click();
  await expect(page, `${destination.label} from ${from}`).toHaveURL((url) => url.pathname === destination.path);
  await expect(bar(page).getByRole("link", { name: destination.label })).toHaveAttribute("aria-current", "page");
}
