import os from "node:os";
import path from "node:path";
import { chromium, defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./test/support/chromium.mjs";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const dataDir = path.resolve(".cache/e2e-data");

export default defineConfig({
  testDir: "test/e2e",
  fullyParallel: true,
  // Playwright's default is half the cores: one worker on a 2-core machine, where `npm test` then spent 9 of its 14
  // minutes here. The tests mostly wait on the server and the browser, and CI has always run two.
  workers: Math.max(2, Math.floor(os.availableParallelism() / 2)),
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: ".test-reports/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          // CHROMIUM_PATH, the system's Chromium, else Playwright's own; `npm test` installs one when there is none.
          executablePath: findChromium({ playwrightPath: chromium.executablePath() }),
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  // The built server, as `npm start` runs it, on a fresh embedded database with demo data.
  webServer: {
    command: `rm -rf "${dataDir}" && node build/index.js`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { NODE_ENV: "production", PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir },
  },
});
