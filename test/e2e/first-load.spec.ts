// ./scenes' `test` (plain Playwright) rather than ./fixtures': this spec counts bytes and checks no behaviour, and the
// fixture would run axe-core on each of its 55 page loads, the checks accessibility.spec.ts already makes of the same pages.
import { expect } from "@playwright/test";
import { FIRST_LOAD_BUDGET_KB, kb, largest, loadPage, signInContext, sizesOf } from "../support/first-load.mjs";
import { fillPath, SPEC_PAGES, test } from "./scenes";
import { local, NEEDS } from "./target";

/**
 * The first-load JavaScript budget (issue 23): on every page, a first visit fetches at most FIRST_LOAD_BUDGET_KB of
 * gzip'd JavaScript, signed out and signed in, counted as `npm run bench:first-load` counts it.
 */

for (const { path: pattern, signedIn, signedOut } of SPEC_PAGES) {
  for (const state of [...(signedOut ? (["signedOut"] as const) : []), ...(signedIn ? (["signedIn"] as const) : [])]) {
    const label = state === "signedIn" ? "signed in" : "signed out";
    const budgetKb = FIRST_LOAD_BUDGET_KB[state];

    test(`${pattern} ${label} fetches at most ${budgetKb} KB of gzip'd JavaScript`, local(NEEDS.testPayments, NEEDS.demoData), async ({ context, baseURL, scene }) => {
      const path = fillPath(pattern, scene.ids);
      if (state === "signedIn") await signInContext(context, baseURL, scene.member);
      // The sizes do not change with waiting: a short quiet spell after hydration still catches what hydration starts
      // (the realtime client, the member-only overlays) without the bench's 2 s per page.
      const load = await loadPage(context, new URL(path, baseURL).href, { idleMs: 1000 });
      // A guard's redirect to /login or an error page would measure another page.
      expect({ path: new URL(load.page.url()).pathname, status: load.status }, `${path} ${label} is the page itself`).toEqual({ path, status: 200 });

      const sized = await sizesOf(load.scripts);
      const gzip = sized.reduce((sum, script) => sum + script.gzip, 0);
      const files = sized.length > 4 ? `${largest(sized, 4)}, … of ${sized.length} files` : largest(sized, 4);
      expect(gzip, `${path} ${label}: ${kb(gzip)} KB gz, budget ${budgetKb} KB (${files})`).toBeLessThanOrEqual(budgetKb * 1024);
    });
  }
}
