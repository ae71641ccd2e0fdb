import type { Page } from "@playwright/test";
import { documentWasReloaded, expect, markDocument, test, waitForHydration } from "./fixtures";

// Remix logs the failed import before our guard decides what to do.
test.use({ allowedConsoleError: /Error loading route module|Failed to fetch dynamically imported module|ERR_FAILED/ });

const supportChunk = /\/assets\/_documentation\.support-[\w-]+\.js$/;

/** Opens the home page, marks the document, and clicks the header's support link. */
async function clickSupportFromHome(page: Page) {
  await page.goto("/");
  await waitForHydration(page);
  await markDocument(page);
  await page.getByRole("banner").getByRole("link", { name: "サポート" }).click();
}

/** Waits for the full page load the chunk guard triggers, and for the new document to hydrate. */
async function waitForReload(page: Page) {
  await page.waitForFunction(() => !(window as unknown as { __gmMarker?: boolean }).__gmMarker);
  await waitForHydration(page);
}

test("a client-side navigation stays client-side while the build is current", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await markDocument(page);
  await page.getByRole("banner").getByRole("link", { name: "サポート" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("サポート");
  expect(await documentWasReloaded(page)).toBe(false);
});

test("after a new deployment the next navigation is a full page load", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await markDocument(page);
  let answered = 0;
  await page.route("**/builds/latest", (route) => {
    answered += 1;
    return route.fulfill({ json: { id: "a-newer-build" } });
  });
  // The tab checks one at a time: a focus while a check is still out (the page's own, from when the window got focus
  // on load, slow on a loaded runner) is ignored, and that check asked the real server. So focus again until the
  // newer build was answered once; a single focus and waiting for its request timed out in CI.
  await expect
    .poll(async () => {
      await page.evaluate(() => window.dispatchEvent(new Event("focus")));
      return answered;
    })
    .toBeGreaterThan(0);
  await page.getByRole("banner").getByRole("link", { name: "サポート" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("サポート");
  expect(await documentWasReloaded(page)).toBe(true);
});

test("a route chunk that fails to load reloads the page once", async ({ page }) => {
  let failures = 0;
  await page.route(supportChunk, (route) => {
    if (failures > 0) return route.continue();
    failures++;
    return route.abort();
  });
  await clickSupportFromHome(page);
  await waitForReload(page);
  // The reloaded page has the new manifest; the link works now.
  await page.getByRole("banner").getByRole("link", { name: "サポート" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("サポート");
  expect(failures).toBe(1);
});

test("a chunk that fails again within 10 seconds shows the error page instead of reloading forever", async ({ page }) => {
  await page.route(supportChunk, (route) => route.abort());
  await clickSupportFromHome(page);
  await waitForReload(page);
  await markDocument(page);
  await page.getByRole("banner").getByRole("link", { name: "サポート" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("エラーが発生しました");
  await expect(page.getByText("問題が発生しました。時間をおいて再度お試しください。")).toBeVisible();
  expect(await documentWasReloaded(page)).toBe(false);
});
