// ./scenes' `test` (plain Playwright) rather than ./fixtures': this spec counts bytes and checks no behaviour, and the
// fixture would run axe-core on each of its page loads, the checks accessibility.spec.ts already makes of the same pages.
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { firstVisit, FIRST_LOAD_BUDGET_KB, kb, largest, signInContext, sizesOf, type FetchedScript } from "../support/first-load.mjs";
import { createUser, E2E_PASSWORD } from "./fixtures";
import { fillPath, SCREEN_PAGES, test } from "./scenes";
import { local, NEEDS } from "./target";

/**
 * The first-load JavaScript budget: on every page, a first visit fetches at most FIRST_LOAD_BUDGET_KB of
 * gzip'd JavaScript, signed out and signed in, counted as `npm run bench:first-load` counts it; /login/mfa, which only a
 * sign-in that owes its second step reaches, is held to the signed-out budget.
 *
 * The pages go in groups, one test per group (ADR 059). Each page is still a first visit: a group's pages take turns in
 * one page of a context of its own (no video or trace), its cookies, storage, service worker and cache cleared before
 * each and its caches bypassed (firstVisit, ADR 061), so nothing one page fetched is there for the next.
 */

type State = "signedOut" | "signedIn";
const GROUP_SIZE = 7;
const chunks = <T,>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

for (const state of ["signedOut", "signedIn"] as const) {
  const label = state === "signedIn" ? "signed in" : "signed out";
  const budgetKb = FIRST_LOAD_BUDGET_KB[state];
  const patterns = SCREEN_PAGES.filter((entry) => (state === "signedIn" ? entry.signedIn : entry.signedOut)).map((entry) => entry.path);

  for (const group of chunks(patterns, GROUP_SIZE)) {
    test(`${label}, ${group.join(" ")} each fetch at most ${budgetKb} KB of gzip'd JavaScript`, local(NEEDS.testPayments, NEEDS.demoData), async ({ browser, baseURL, scene }) => {
      test.setTimeout(30_000 + group.length * 20_000);
      // As the test's own context would be: the project's device, locale and time zone.
      const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId, reducedMotion } = test.info().project.use;
      const context = await browser.newContext({ viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId, reducedMotion });
      try {
        const page = await context.newPage();
        const signIn = state === "signedIn" ? () => signInContext(context, baseURL, scene.member) : undefined;
        for (const pattern of group) await checkFirstLoad(page, baseURL!, state, fillPath(pattern, scene.ids), signIn);
      } finally {
        await context.close();
      }
    });
  }
}

test(`owing the second step, /login/mfa fetches at most ${FIRST_LOAD_BUDGET_KB.signedOut} KB of gzip'd JavaScript`, async ({ browser, baseURL }) => {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId, reducedMotion } = test.info().project.use;
  const context = await browser.newContext({ baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId, reducedMotion });
  try {
    const member = await memberWithApp(context, baseURL!);
    // Until the code is given the session counts as signed out (ADR 064): the page is held to that budget.
    await checkFirstLoad(await context.newPage(), baseURL!, "signedOut", "/login/mfa", () => signInContext(context, baseURL, member));
  } finally {
    await context.close();
  }
});

/**
 * A member who confirmed an authenticator app on /settings/security, through its forms as a browser without JavaScript
 * posts them: a password sign-in of theirs then owes the app's code. The context is left signed in; a first visit
 * clears its cookies anyway.
 */
async function memberWithApp(context: BrowserContext, baseURL: string) {
  const member = { email: (await createUser(context.request, "計測の二段階さん")).email, password: E2E_PASSWORD };
  await signInContext(context, baseURL, member);
  const enrolment = await (await context.request.post("/settings/security", { form: { intent: "enroll" } })).text();
  const secret = /data-secret="([A-Z2-7]+)"/.exec(enrolment)?.[1];
  const factorId = /name="factorId" value="([0-9a-f-]{36})"/.exec(enrolment)?.[1];
  expect(secret && factorId, "the enrolment's key and factor").toBeTruthy();
  const code = TOTP.generate({ secret: Secret.fromBase32(secret!), algorithm: "SHA1", digits: 6, period: 30 });
  const confirmed = await context.request.post("/settings/security", { form: { intent: "confirm", factorId: factorId!, secret: secret!, code } });
  expect(await confirmed.text()).toContain('data-testid="recovery-codes"');
  return member;
}

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

/** One page's first visit: the page itself answered, and its scripts within the budget. */
async function checkFirstLoad(page: Page, baseURL: string, state: State, path: string, signIn?: () => Promise<void>) {
  const label = state === "signedIn" ? "signed in" : "signed out";
  const budgetKb = FIRST_LOAD_BUDGET_KB[state];
  // The sizes do not change with waiting: a short quiet spell after hydration still catches what hydration starts
  // (the realtime client, the member-only overlays) without the bench's 2 s per page.
  const load = await firstVisit(page, new URL(path, baseURL).href, { idleMs: 1000, signIn });
  // A guard's redirect to /login or an error page would measure another page.
  expect.soft({ path: new URL(page.url()).pathname, status: load.status }, `${path} ${label} is the page itself`).toEqual({ path, status: 200 });

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
