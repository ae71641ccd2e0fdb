import { AxeBuilder } from "@axe-core/playwright";
import { type BrowserContext, errors, expect, type Page } from "@playwright/test";
import { test as base } from "./target";

/** The impacts that fail a test; moderate and minor findings are left to review. */
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

/**
 * A region marked aria-busy is being replaced (explore's results dimmed while a search loads, a form's button while it
 * submits): what is checked is the page once it has settled, not the moment in between. A region still busy after
 * 15 s is checked as it is, and a finding there is real.
 */
async function settleBusy(page: Page) {
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null, undefined, { timeout: 15_000 }).catch((error: unknown) => {
    if (!(error instanceof errors.TimeoutError)) throw error;
  });
}

/**
 * Waits while something animates below full opacity (a toast fading in or out, or one just started at 0, as in a
 * fresh copy of the page), or while a CSS transition runs (a button's colours easing from one state to the next after
 * a render, `transition-colors`: a blend of the two that axe once measured at 3.8:1): those frames are not what a
 * reader gets. A toast's own long animation at full opacity is not waited for.
 */
async function settleFades(page: Page) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const fading = await page.evaluate(() =>
      document.getAnimations().some((animation) => {
        const target = (animation.effect as KeyframeEffect | null)?.target;
        if (!target || (animation.playState !== "running" && !animation.pending)) return false;
        if (animation instanceof CSSTransition) return true;
        const opacity = Number(getComputedStyle(target).opacity);
        return opacity < 1;
      }),
    );
    if (!fading) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs axe-core on the page as it is now and describes each serious or critical violation in one line
 * (rule, element, page). Legacy mode runs axe inside the page itself: the default mode opens a blank page in
 * the test's browser context to merge frame results, which the app (no iframes) does not need and which would
 * show up in tests that wait for a new page. axe needs timers, which do not run where JavaScript is disabled:
 * there it checks a copy of the document (without its scripts) in a scratch page of the same size.
 */
export function axeViolations(page: Page, options: { javaScriptEnabled?: boolean } = {}): Promise<string[]> {
  // One check at a time per page: the fixture's check of a page that just loaded and a test's own check would
  // otherwise overlap, and axe refuses a second run in a document ("Axe is already running").
  const run = (axeRuns.get(page) ?? Promise.resolve()).then(() => checkPage(page, options));
  axeRuns.set(page, run.catch(() => {}));
  return run;
}
const axeRuns = new WeakMap<Page, Promise<unknown>>();

/**
 * The scratch page a page's copies are checked in (without JavaScript): one per page, in a context of its own, opened
 * at its first check and closed with the test (closeScratch). Each copy is served at its original's address by the
 * page's one route. A new page per check cost Chromium a new renderer (about 0.6 s of CPU here, three times a page
 * load in one already open); the same page moving from copy to copy costs a page load.
 */
type Scratch = { page: Page; copy?: { url: string; html: string } };
const scratchPages = new WeakMap<Page, Promise<Scratch>>();

function scratchPage(page: Page) {
  let scratch = scratchPages.get(page);
  if (!scratch) {
    const browser = page.context().browser();
    if (!browser) throw new Error("axe-core: no browser to open a scratch page in");
    scratch = (async () => {
      // Explicitly on: Playwright Test gives new contexts the test's options, javaScriptEnabled: false included.
      const context = await browser.newContext({ locale: "ja-JP", javaScriptEnabled: true, reducedMotion: "reduce" });
      const state: Scratch = { page: await context.newPage() };
      // Served at the original's own address, so the copy is of the app's origin: its stylesheet and icon sprite load as
      // the original's did (the app's Cross-Origin-Resource-Policy refuses them to any other origin, about:blank's too).
      await state.page.route(
        (address) => state.copy !== undefined && withoutHash(address.href) === state.copy.url,
        (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: state.copy!.html }),
      );
      return state;
    })();
    scratchPages.set(page, scratch);
  }
  return scratch;
}

const withoutHash = (url: string) => url.split("#")[0]!;

/** Shows `html` as the document at `url` in the scratch page, loaded afresh even when it is at that address already. */
async function showCopy(scratch: Scratch, url: string, html: string) {
  scratch.copy = { url: withoutHash(url), html };
  const target = scratch.page;
  if (target.url() === url) await target.reload({ waitUntil: "load" });
  else if (withoutHash(target.url()) === withoutHash(url)) {
    // Only the fragment differs: going there scrolls without loading; the reload then loads the copy there.
    await target.goto(url);
    await target.reload({ waitUntil: "load" });
  } else await target.goto(url, { waitUntil: "load" });
}

/** Closes the page's scratch page and its context, if a check opened them. */
async function closeScratch(page: Page) {
  const scratch = scratchPages.get(page);
  scratchPages.delete(page);
  await (await scratch?.catch(() => undefined))?.page.context().close();
}

async function checkPage(page: Page, { javaScriptEnabled = true }: { javaScriptEnabled?: boolean }): Promise<string[]> {
  const url = page.url();
  let target = page;
  if (!javaScriptEnabled) {
    // A copy of a document still arriving (the next page of a form post streaming in) would be checked half-built:
    // only a loaded document, still at the URL the check is for, is copied. A test's own check can come while its
    // page is still loading (the answer to a form post, whose heading already shows): it waits for the load first.
    await page.waitForLoadState("load");
    const copied = await page.evaluate(() => (document.readyState === "complete" ? { url: location.href, html: document.documentElement.outerHTML } : null));
    if (!copied) throw new Error(`navigated away from ${url} before the copy for axe was made (a new document is loading)`);
    if (copied.url !== url) throw new Error(`navigated away from ${url} to ${copied.url} before the copy for axe was made`);
    // Without its scripts and their preloads: nothing in the copy runs, as nothing in the original did.
    const html = `<!DOCTYPE html>${copied.html}`.replace(/<script\b[\s\S]*?<\/script>/gi, "").replace(/<link rel="modulepreload"[^>]*>/gi, "");
    const scratch = await scratchPage(page);
    target = scratch.page;
    const viewport = page.viewportSize();
    if (viewport) await target.setViewportSize(viewport);
    await showCopy(scratch, url, html);
  }
  // A page checked the moment it loads can still be waiting for its stylesheet (on a throttled connection, say):
  // checked unstyled, every link would be 17 px tall. Wait for the sheets first.
  await target.waitForFunction(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet !== null), undefined, {
    timeout: 15_000,
  });
  let results: Awaited<ReturnType<AxeBuilder["analyze"]>>;
  for (let attempt = 1; ; attempt++) {
    await settleBusy(target);
    await settleFades(target);
    // Held still while axe runs, so a toast cannot start fading out in the middle of the check; then resumed.
    const still = await target.evaluate(() => {
      const running = document.getAnimations().filter((animation) => animation.playState === "running");
      // One that began since the wait above is a transition or below full opacity: wait for it first.
      const faint = running.some((animation) => {
        if (animation instanceof CSSTransition) return true;
        const element = (animation.effect as KeyframeEffect | null)?.target;
        return element ? Number(getComputedStyle(element).opacity) < 1 : false;
      });
      if (faint) return false;
      for (const animation of running) animation.pause();
      (window as unknown as { __axePaused?: Animation[] }).__axePaused = running;
      return true;
    });
    if (!still && attempt < 3) continue;
    results = await new AxeBuilder({ page: target })
      .setLegacyMode(true)
      // Off by default in axe 4.x: WCAG 2.5.3 (A), a control's visible text is in its name (experimental in axe), and
      // WCAG 2.2's 2.5.8 (AA), every target at least 24×24 CSS px or spaced as if it were. Only violations are read:
      // `resultTypes` spares axe a unique selector for every passing node (a third of its time on a page here),
      // while every rule still runs on every node.
      .options({ resultTypes: ["violations"], rules: { "label-content-name-mismatch": { enabled: true }, "target-size": { enabled: true } } })
      .analyze();
    const after = await target.evaluate(() => {
      const paused = (window as unknown as { __axePaused?: Animation[] }).__axePaused ?? [];
      for (const animation of paused) animation.play();
      return {
        href: location.href,
        startedMeanwhile: document.getAnimations().some((animation) => !paused.includes(animation) && animation.playState === "running"),
        busy: document.querySelector('[aria-busy="true"]') !== null,
      };
    });
    // The test moves on while axe runs in the page: a client-side navigation replaces the document's content under
    // it, so what it measured belongs to neither page. The new URL gets its own check.
    if (after.href !== url) throw new Error(`navigated from ${url} to ${after.href} while axe ran`);
    // A region that became busy during the run (a search started) or an animation that began (a toast that just
    // arrived) was measured dimmed or half-faded: check again.
    if (!(after.startedMeanwhile || after.busy) || attempt >= 3) break;
  }
  return results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""))
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id} (${violation.impact}) at ${node.target.join(" ")} on ${url}: ${node.failureSummary?.replace(/\s+/g, " ") ?? violation.help}`,
      ),
    );
}

/** A navigation that happens while axe runs is the test moving on, not a finding: the new page is checked itself. */
const isNavigationRace = (error: unknown) =>
  // The last one: the document that axe was injected into was replaced before axe.run (or, in a frame, axe.runPartial)
  // was called, so `axe` is undefined in the new one.
  /Execution context was destroyed|navigat|Target page, context or browser has been closed|frame was detached|reading 'run(Partial)?'/i.test(
    String(error),
  );

/**
 * Every page must run clean: no uncaught errors and no console errors, which is also how a
 * Content-Security-Policy violation shows up. Tests that provoke an error on purpose list it.
 * And every page a test visits must have no serious or critical accessibility violation (axe-core): each
 * distinct URL is checked once per test, when its document has loaded and again, if not yet checked, at the end.
 */
export const test = base.extend<{ allowedConsoleError: RegExp | null; checkEachPage: boolean }>({
  allowedConsoleError: [null, { option: true }],
  // Off only where a spec checks each page itself, once it has settled (page-sweep.spec.ts): a second run of axe on
  // the same page at its load would find nothing more and cost as much.
  checkEachPage: [true, { option: true }],
  page: async ({ page, allowedConsoleError, javaScriptEnabled, checkEachPage }, use) => {
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

    const violations: string[] = [];
    const checked = new Set<string>();
    let queue = Promise.resolve();
    const check = () => {
      if (!checkEachPage) return;
      queue = queue.then(async () => {
        const url = page.url();
        if (checked.has(url) || !/^https?:/.test(url)) return;
        try {
          const found = await axeViolations(page, { javaScriptEnabled });
          // The page may have moved on while axe ran: count the check for the URL it ran on.
          checked.add(url);
          violations.push(...found);
        } catch (error) {
          if (!isNavigationRace(error)) violations.push(`axe-core could not run on ${url}: ${String(error)}`);
        }
      });
    };
    // A document load, and a client-side navigation once the new route has rendered.
    page.on("load", check);
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) void page.waitForLoadState("load").then(check, () => {});
    });

    await use(page);
    check();
    await queue;
    await closeScratch(page);
    expect(problems, "console errors on the page").toEqual([]);
    expect(violations, "serious or critical accessibility violations (axe-core)").toEqual([]);
  },
});

export { expect };
/** The @local tag and its reasons (./target): `test("…", local(NEEDS.testPayments), …)`. */
export { local, NEEDS, REMOTE_BASE_URL } from "./target";

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

/** The API's headers for a member: their token, and an Idempotency-Key where the call takes one. */
export const bearer = (user: { token: string }, key?: string) => ({ Authorization: `Bearer ${user.token}`, ...(key ? { "Idempotency-Key": key } : {}) });

/**
 * A new seller with 1,600 earned coins, through the API: a buyer buys coins and books 2 × 1,000 coins of the seller's
 * listing, the seller accepts and starts it, the buyer completes it (less the 20 % fee). Needs the test payments.
 */
export async function sellerWithEarnings(request: import("@playwright/test").APIRequestContext, { sellerName, title }: { sellerName: string; title: string }) {
  const seller = await createUser(request, sellerName);
  const buyer = await createUser(request, "売上をくれる購入者");
  expect((await request.post("/api/coins/orders", { data: { packageId: 3 }, headers: bearer(buyer, crypto.randomUUID()) })).status()).toBe(201);
  const listing = await request.post("/api/listings", { data: { title, gameSlug: "apex-legends", pricePerUnit: 1_000, minutesPerUnit: 30, maxUnits: 2 }, headers: bearer(seller) });
  const listingId = (await listing.json()).data.listing.id as string;
  const booked = await request.post(`/api/listings/${listingId}/purchase`, { data: { units: 2, desiredStartTime: Date.now() + 60_000 }, headers: bearer(buyer, crypto.randomUUID()) });
  const bookingId = (await booked.json()).data.ticket.id as string;
  for (const [user, action] of [[seller, "accept"], [seller, "start"], [buyer, "complete"]] as const) {
    expect((await request.post(`/api/tickets/${bookingId}/${action}`, { data: {}, headers: bearer(user) })).status()).toBe(200);
  }
  return seller;
}

/** Signs the page in through the login form. */
export async function login(page: import("@playwright/test").Page, email: string, redirectTo = "/mypage") {
  await page.goto(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
  await page.waitForURL(redirectTo);
}
