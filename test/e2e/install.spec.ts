import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, expect, test } from "@playwright/test";
import { CHROMIUM_ARGS } from "../support/chromium.mjs";

/**
 * a phone can add GamerMatch to its home screen. Chromium's own installability check, as its install prompt
 * runs it, over the manifest the page links and the icons it names. A persistent profile: the test's usual contexts
 * are incognito, where Chromium installs nothing.
 */
test("Chromium finds the app installable", async ({ baseURL }, testInfo) => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "gm-install-"));
  const launch = testInfo.project.use.launchOptions ?? {};
  const context = await chromium.launchPersistentContext(profile, { executablePath: launch.executablePath, args: CHROMIUM_ARGS, baseURL });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto("/");
    const cdp = await context.newCDPSession(page);
    // The manifest and its icons load after the page; the check answers once they have.
    await expect
      .poll(async () => {
        const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
        return installabilityErrors.map((error) => error.errorId);
      })
      .toEqual([]);
    const { url, errors } = (await cdp.send("Page.getAppManifest")) as { url: string; errors: { message: string }[] };
    expect(new URL(url).pathname).toBe("/manifest.webmanifest");
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
