// @ts-check
// The videos the HTML report keeps for failed flows. Playwright encodes them with an ffmpeg build it
// downloads (`npx playwright install ffmpeg`), which a machine that reaches only the npm registry and Debian's packages
// cannot fetch; Debian's own ffmpeg encodes the same VP8 WebM from the same arguments, so it is linked where Playwright
// looks. Run directly (`node test/support/ffmpeg.mjs`) it does that and prints the path, or why there is none.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { aptInstallSteps, canAptInstall, isExecutable, runSteps } from "../../server/debian-packages.mjs";

/** Where the system keeps ffmpeg. */
export const SYSTEM_FFMPEG_PATHS = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"];

/** Where Playwright looks for its ffmpeg: its registry directory (as playwright-core computes it) and its revision. */
export function playwrightFfmpegPath({ env = process.env, platform = process.platform, home = os.homedir() } = {}) {
  const require = createRequire(import.meta.url);
  const packageRoot = path.dirname(require.resolve("playwright-core/package.json"));
  /** @type {{ browsers: { name: string, revision: string }[] }} */
  const browsersJson = JSON.parse(fs.readFileSync(path.join(packageRoot, "browsers.json"), "utf8"));
  const revision = browsersJson.browsers.find((browser) => browser.name === "ffmpeg")?.revision;
  if (!revision) return undefined;
  const executable = { linux: "ffmpeg-linux", darwin: "ffmpeg-mac", win32: "ffmpeg-win64.exe" }[/** @type {string} */ (platform)];
  if (!executable) return undefined;
  let registry;
  if (env.PLAYWRIGHT_BROWSERS_PATH === "0") registry = path.join(packageRoot, ".local-browsers");
  else if (env.PLAYWRIGHT_BROWSERS_PATH) registry = path.resolve(env.PLAYWRIGHT_BROWSERS_PATH);
  else if (platform === "darwin") registry = path.join(home, "Library", "Caches", "ms-playwright");
  else if (platform === "win32") registry = path.join(env.LOCALAPPDATA || path.join(home, "AppData", "Local"), "ms-playwright");
  else registry = path.join(env.XDG_CACHE_HOME || path.join(home, ".cache"), "ms-playwright");
  return path.join(registry, `ffmpeg-${revision}`, executable);
}


/** Playwright can record videos: its ffmpeg is there. */
export function hasVideoEncoder(options = {}) {
  const target = playwrightFfmpegPath(options);
  return !!target && isExecutable(target);
}

/**
 * Makes Playwright's ffmpeg be there: a system ffmpeg linked into place, Debian's package installed first when running
 * as root on Debian. `{ path }` or `{ error }` (one line); never throws, since the tests run without videos too.
 * @param {{ log?: (line: string) => void }} [options]
 */
export function ensureVideoEncoder({ log = (line) => console.log(`[ffmpeg] ${line}`) } = {}) {
  const target = playwrightFfmpegPath();
  if (!target) return { error: `no ffmpeg for Playwright on ${process.platform}: failed flows keep no video` };
  if (isExecutable(target)) return { path: target };
  let system = SYSTEM_FFMPEG_PATHS.find(isExecutable);
  if (!system && canAptInstall()) {
    log("installing Debian's ffmpeg package (apt-get install -y ffmpeg) to record the videos of failed flows");
    // The shared apt rule (server/debian-packages.mjs); without the recommended packages, which are a desktop's worth.
    if (runSteps(aptInstallSteps(["--no-install-recommends", "ffmpeg"]))) system = SYSTEM_FFMPEG_PATHS.find(isExecutable);
  }
  if (!system) return { error: "no ffmpeg (Debian: `apt-get install ffmpeg`; elsewhere: `npx playwright install ffmpeg`): failed flows keep no video" };
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.rmSync(target, { force: true });
    fs.symlinkSync(system, target);
  } catch (error) {
    return { error: `could not link ${system} to ${target}: ${String(error)}` };
  }
  log(`${system} linked to ${target} for Playwright's videos`);
  return { path: target };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = ensureVideoEncoder();
  if ("error" in result) {
    console.error(result.error);
    process.exit(1);
  }
  console.log(result.path);
}
