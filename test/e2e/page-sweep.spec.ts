// ./scenes' `test` (plain Playwright): each page is checked with axe-core below, once it has settled; the fixture's own
// check at each load would be a second run on the same page.
import { expect, type Page } from "@playwright/test";
import { firstVisit, signInContext } from "../support/first-load.mjs";
import { axeViolations, waitForHydration } from "./fixtures";
import { matrix } from "./matrix";
import { checkBar, checkFirstLoad, chunks, sidewaysScroll, sweepPages, type State } from "./page-checks";
import { fillPath, test, type Scene } from "./scenes";
import { local, NEEDS } from "./target";

/**
 * Every page, signed out and signed in: the screens of docs/product.md#screens and the other forms, an unknown address
 * and the scene's own pages (page-checks.ts's sweepPages). On a phone (360×640, touch), one first visit per page makes
 * all of a page's checks (ADR 073):
 * - its first-load JavaScript is within the budget (ADR 024), counted as `npm run bench:first-load` counts it: the
 *   visit is a first one, its cookies, storage, service worker and cache cleared and its caches bypassed (firstVisit,
 *   ADR 061), so nothing one page fetched is there for the next;
 * - once hydrated and settled, no serious or critical accessibility violation (axe-core, WCAG 2.2's target size on),
 *   and nothing scrolls sideways;
 * - the bar at the bottom reaches さがす, チケット, チャット and マイページ (a visitor's さがす, フィード and ログイン, the
 *   menu's チケット), and one of them, a different one from page to page, is followed.
 * On a desktop (1280 px) the same pages are checked with axe and for sideways scrolling: a repeat (@matrix, CI's),
 * since every functional flow already checks each page it opens at Desktop Chrome's width, and the phone's 360 px is
 * where layouts break first. Without JavaScript the bar's sweep is phone-nav.spec.ts's.
 *
 * The pages go in groups, one test per group, so Playwright (fullyParallel) spreads them over its workers; a group's
 * pages take turns in one page.
 */

const GROUP_SIZE = 6;
const PHONE = { width: 360, height: 640 };
const DESKTOP = { width: 1280, height: 800 };

for (const [name, viewport] of [
  ["on a phone (360 px)", PHONE],
  ["on a desktop (1280 px)", DESKTOP],
] as const) {
  const phone = viewport === PHONE;
  test.describe(name, matrix(!phone), () => {
    test.use({ viewport, hasTouch: phone });

    for (const state of ["signedOut", "signedIn"] as const) {
      const label = state === "signedIn" ? "signed in" : "signed out";
      const checks = phone ? "first-load weight, accessibility, width and the bar" : "accessibility and width";
      for (const group of chunks(sweepPages(state), GROUP_SIZE)) {
        test(`${label}, ${group.map((entry) => entry.path).join(" ")}: ${checks}`, local(NEEDS.testPayments, NEEDS.demoData), async ({ page, context, baseURL, scene }) => {
          test.setTimeout(60_000 + group.length * 30_000);
          const signIn = state === "signedIn" ? () => signInContext(context, baseURL, scene.member) : undefined;
          if (!phone) await signIn?.();
          const found: string[] = [];
          for (const [index, entry] of group.entries()) {
            const path = fillPath(entry.path, scene.ids);
            if (phone) {
              const load = await firstVisit(page, new URL(path, baseURL).href, { idleMs: 1000, signIn });
              if (entry.screen) await checkFirstLoad(page, load, state, path);
            } else {
              await page.goto(path);
              await waitForHydration(page);
            }
            // The header's live counts and the auth state settle after hydration: check what the user ends up seeing.
            await page.waitForLoadState("networkidle");
            found.push(...(await axeViolations(page)), ...(await sidewaysScroll(page, path)));
            if (state === "signedIn") await checkSceneShown(page, path, scene);
            if (phone && entry.screen) await checkBar(page, state as State, path, index);
          }
          expect(found).toEqual([]);
        });
      }
    }
  });
}

/** The scene's chat room shows its messages: a check that the room was the scene's, and drawn. */
async function checkSceneShown(page: Page, path: string, scene: Scene) {
  if (path !== `/chat/${scene.ids.roomId}`) return;
  await expect(page.getByRole("list", { name: "メッセージ一覧" })).toContainText("よろしくお願いします");
}
