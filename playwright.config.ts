import os from "node:os";
import path from "node:path";
import { chromium, defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./test/support/chromium.mjs";
import { hasVideoEncoder } from "./test/support/ffmpeg.mjs";

/**
 * Any target: with E2E_BASE_URL (https://staging.example.jp) the flows run against that deployment and
 * Playwright starts nothing, neither the server below nor its PostgreSQL twin or mail server; the flows tagged @local
 * are skipped there with the reason (test/e2e/target.ts).
 */
const REMOTE_BASE_URL = process.env.E2E_BASE_URL ? parseBaseUrl(process.env.E2E_BASE_URL) : undefined;
const PORT = Number(process.env.E2E_PORT ?? 3100);
/** The flows' SMTP server (test/support/e2e-mail-server.mjs) and where they read what it received. */
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 3125);
const MAIL_HTTP_PORT = Number(process.env.E2E_MAIL_HTTP_PORT ?? 3126);
/** The flows' stand-in Discord (test/support/e2e-discord.mjs): 「Discordでログイン」 on the built server goes there. */
const DISCORD_PORT = Number(process.env.E2E_DISCORD_PORT ?? 3127);
const DISCORD_URL = `http://127.0.0.1:${DISCORD_PORT}`;
const DISCORD_CLIENT = { id: "100000000000000001", secret: "stand-in-secret" };
process.env.E2E_DISCORD_URL = DISCORD_URL;
/**
 * With TEST_DATABASE_URL (as `.ci/run` sets it), a second built server on a fresh PostgreSQL database: flows that need
 * an operator's command beside the running server (`npm run moderation`) use it, since only one process can open the
 * embedded database the first server holds. Its URLs reach the flows through the environment the workers inherit.
 */
const PG_PORT = Number(process.env.E2E_PG_PORT ?? 3102);
if (process.env.TEST_DATABASE_URL && !REMOTE_BASE_URL) {
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/gm_e2e_${PG_PORT}`;
  process.env.E2E_PG_DATABASE_URL = url.toString();
  process.env.E2E_PG_BASE_URL = `http://127.0.0.1:${PG_PORT}`;
}
const dataDir = path.resolve(".cache/e2e-data");
/** Playwright's ffmpeg is there to record videos (`node test/support/ffmpeg.mjs` provides it). */
const VIDEO = hasVideoEncoder();
// Said once, by the runner (workers load this file too).
if (process.env.E2E_VIDEO === "1" && !VIDEO && process.env.TEST_WORKER_INDEX === undefined) {
  console.log("[playwright.config] no ffmpeg for Playwright: failed flows keep no video (`node test/support/ffmpeg.mjs` links Debian's)");
}
/** The trace's filmstrip (ADR 075): in CI, or when asked. */
const TRACE_SCREENSHOTS = !!process.env.CI || process.env.E2E_TRACE_SCREENSHOTS === "1";
/** Reports a person can open (`npx playwright show-report .test-reports/e2e-html`); a second run may name its own. */
const HTML_REPORT = process.env.E2E_HTML_REPORT || ".test-reports/e2e-html";
const JSON_REPORT = process.env.E2E_JSON_REPORT || ".test-reports/e2e.json";

function parseBaseUrl(value: string) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`E2E_BASE_URL is not a URL: ${value}`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new Error(`E2E_BASE_URL must be an http(s):// URL: ${value}`);
  // The flows navigate to absolute paths ("/login"), so a path in the URL would be lost anyway.
  return url.origin;
}

const LOCAL_SERVERS: Extract<PlaywrightTestConfig["webServer"], unknown[]> = [
  // A real SMTP server for the app's mail, which the flows read (a forgotten password, notification mails).
  {
    command: "node test/support/e2e-mail-server.mjs",
    url: `http://127.0.0.1:${MAIL_HTTP_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: { E2E_SMTP_PORT: String(SMTP_PORT), E2E_MAIL_HTTP_PORT: String(MAIL_HTTP_PORT) },
  },
  // Discord as the flows meet it: its consent page with 許可/拒否, its token endpoint and API, its CDN.
  {
    command: "node test/support/e2e-discord.mjs",
    url: `${DISCORD_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: {
      E2E_DISCORD_PORT: String(DISCORD_PORT),
      E2E_DISCORD_CLIENT_ID: DISCORD_CLIENT.id,
      E2E_DISCORD_CLIENT_SECRET: DISCORD_CLIENT.secret,
      E2E_DISCORD_REDIRECT_URI: [`http://127.0.0.1:${PORT}/auth/v1/callback`, `http://127.0.0.1:${PG_PORT}/auth/v1/callback`].join(","),
    },
  },
  // The built server, as `npm start` runs it, on a fresh embedded database with demo data.
  {
    command: `rm -rf "${dataDir}" && node build/index.js`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SITE_URL: `http://127.0.0.1:${PORT}`,
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      DISCORD_CLIENT_ID: DISCORD_CLIENT.id,
      DISCORD_CLIENT_SECRET: DISCORD_CLIENT.secret,
      DISCORD_URL,
      DISCORD_CDN_URL: DISCORD_URL,
      // The Discord stand-in's avatars are on loopback: only the tests' switch lets the server fetch them.
      TEST_OUTBOUND_LOOPBACK: "true",
    },
  },
  ...(process.env.E2E_PG_DATABASE_URL
    ? [
        {
          command: `rm -rf "${dataDir}-pg" && node test/support/e2e-database.mjs && node build/index.js`,
          url: `${process.env.E2E_PG_BASE_URL}/healthz`,
          reuseExistingServer: false,
          timeout: 60_000,
          env: {
            NODE_ENV: "production",
            PORT: String(PG_PORT),
            HOST: "127.0.0.1",
            DATA_DIR: `${dataDir}-pg`,
            DATABASE_URL: process.env.E2E_PG_DATABASE_URL,
            TEST_DATABASE_URL: process.env.TEST_DATABASE_URL!,
            SITE_URL: process.env.E2E_PG_BASE_URL!,
            SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
            DISCORD_CLIENT_ID: DISCORD_CLIENT.id,
            DISCORD_CLIENT_SECRET: DISCORD_CLIENT.secret,
            DISCORD_URL,
            DISCORD_CDN_URL: DISCORD_URL,
            TEST_OUTBOUND_LOOPBACK: "true",
          },
        },
      ]
    : []),
];

export default defineConfig({
  testDir: "test/e2e",
  fullyParallel: true,
  // Playwright's default is half the cores: one worker on a 2-core machine, where `npm test` then spent 9 of its 14
  // minutes here. The tests mostly wait on the server and the browser, and CI has always run two.
  workers: Math.max(2, Math.floor(os.availableParallelism() / 2)),
  retries: 0,
  forbidOnly: !!process.env.CI,
  // A flow's bound. CI on the 2-core runner, two workers beside the server: flows of many pages take 20-60 s (each page
  // is checked with axe-core); the coin dialog's two-tab flow took 29.5 s and then 33.4 s against the old 30 s, a bound
  // at its own p99. 90 s stays well above what was measured; flows that need more say so themselves.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    // test/run.mjs counts its closing line from this one.
    ["json", { outputFile: JSON_REPORT }],
    // Each failure with its trace, screenshot and video; `open: "never"` so CI and a terminal never wait on a browser.
    ["html", { outputFolder: HTML_REPORT, open: "never" }],
    // Each skipped flow under its reason (a @local flow against a deployment): the list reporter shows titles only.
    ["./test/support/skip-reporter.ts"],
  ],
  use: {
    baseURL: REMOTE_BASE_URL ?? `http://127.0.0.1:${PORT}`,
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
    // As a person who asked for less motion sees it: a toast is then shown at full opacity until it goes (app.css), so
    // the axe check of a page never measures a toast's text half faded in or out (a contrast of 1.7 seen in CI's
    // smoke run). The fades themselves are not what the flows check.
    reducedMotion: "reduce",
    // A failed flow keeps its trace: each step's DOM snapshot, the network and the console. The filmstrip of screenshots
    // beside them costs Chromium a screencast of every flow, 9 % of the flows' time here (ADR 075): it is recorded in CI
    // (`CI` set, as `.ci/run` and CI services set it) and with E2E_TRACE_SCREENSHOTS=1, which a flake's hunt can ask for.
    trace: { mode: "retain-on-failure", screenshots: TRACE_SCREENSHOTS },
    screenshot: "only-on-failure",
    // Only when asked (E2E_VIDEO=1): recording every flow to keep the failed ones' videos cost 11 % of the suite's CPU
    // on the 2-core machine (ADR 059), and a failure's trace already holds its screenshots step by step. Off where
    // Playwright has no ffmpeg to encode them, rather than failing every test.
    video: process.env.E2E_VIDEO === "1" && VIDEO ? "retain-on-failure" : "off",
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
  // The suite's own servers; none against a deployment.
  webServer: REMOTE_BASE_URL ? [] : LOCAL_SERVERS,
});
