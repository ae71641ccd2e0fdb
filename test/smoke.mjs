// `npm run test:smoke`: the smoke set (test/e2e/smoke, tagged @smoke) against a deployment when E2E_BASE_URL
// is set (`E2E_BASE_URL=https://staging.example.jp npm run test:smoke`), else against the suite's own server, built
// first as `npm run test:e2e` does. Arguments go on to Playwright (`npm run test:smoke -- --headed`). Ends with the
// HTML report's path and how to open it.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ensureChromium } from "./support/chromium.mjs";
import { ensureVideoEncoder } from "./support/ffmpeg.mjs";

const remote = process.env.E2E_BASE_URL;
const report = process.env.E2E_HTML_REPORT || ".test-reports/e2e-html";

function run(command, args, env = process.env) {
  return spawnSync(command, args, { stdio: "inherit", env }).status ?? 1;
}

if (!remote && run("npm", ["run", "build", "--silent"]) !== 0) {
  console.error("test:smoke: the build failed");
  process.exit(1);
}
const browser = await ensureChromium();
if ("error" in browser) {
  console.error(`test:smoke: ${browser.error}`);
  process.exit(1);
}
// Videos of failed flows only when asked (E2E_VIDEO=1, playwright.config.ts), and then when ffmpeg can be had.
if (process.env.E2E_VIDEO === "1") {
  const video = ensureVideoEncoder();
  if ("error" in video) console.log(`[ffmpeg] ${video.error}`);
}

console.log(`\n▶ smoke set against ${remote ?? "the suite's own server (set E2E_BASE_URL to test a deployment)"}`);
const status = run("npx", ["playwright", "test", "--grep", "@smoke", ...process.argv.slice(2)], { ...process.env, CHROMIUM_PATH: browser.path });
console.log(`\nHTML report: ${path.resolve(report)}/index.html`);
console.log(`  open it with: npx playwright show-report ${report}`);
process.exit(status);
