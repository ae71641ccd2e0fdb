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
