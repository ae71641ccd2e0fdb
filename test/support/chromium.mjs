// @ts-check
// The browser the end-to-end tests drive. `npm test` must work on a fresh machine, so it looks for a Chromium in
// order (CHROMIUM_PATH, the system's, Playwright's own download) and, when there is none, obtains one the way the
// platform allows: Debian's package as root, else Playwright's installer. When nothing works it says so in one line.
// Run directly (`node test/support/chromium.mjs`) it does that and prints the path it found.
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { aptInstallSteps, canAptInstall, isExecutable, runSteps } from "../../server/debian-packages.mjs";

/** Where the system keeps Chromium: Debian and Ubuntu's packages, snap, and a Chrome install. */
export const SYSTEM_CHROMIUM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/snap/bin/chromium",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
];

/** How the tests launch it: as root in a closed network (no sandbox, no GPU, no calls home). */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export const MISSING_BROWSER_LINE =
  "No Chromium for the end-to-end tests: install one (Debian: `apt-get install chromium`; elsewhere: `npx playwright install chromium`) or set CHROMIUM_PATH to a Chromium executable.";

/** Playwright's own Chromium, where `npx playwright install chromium` puts it (whether or not it is there). */
export async function playwrightChromiumPath() {
  try {
    const { chromium } = await import("@playwright/test");
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/**
 * The first Chromium that is there, or undefined. CHROMIUM_PATH comes first; one that points nowhere is reported
 * and passed over.
 * @param {{ env?: Record<string, string | undefined>, systemPaths?: string[], playwrightPath?: string, log?: (line: string) => void }} [options]
 */
export function findChromium({ env = process.env, systemPaths = SYSTEM_CHROMIUM_PATHS, playwrightPath, log = () => {} } = {}) {
  if (env.CHROMIUM_PATH) {
    if (isExecutable(env.CHROMIUM_PATH)) return env.CHROMIUM_PATH;
    log(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file; looking for another Chromium`);
  }
  return [...systemPaths, ...(playwrightPath ? [playwrightPath] : [])].find(isExecutable);
}

/**
 * The ways this machine may obtain a Chromium, in order: Debian's package when running as root on Debian (what
 * CI and a fresh developer machine here are), then Playwright's own download (other systems).
 * @returns {{ label: string, steps: [string, string[]][] }[]}
 */
export function installersFor(/** @type {Parameters<typeof canAptInstall>[0]} */ machine = {}) {
  const installers = [];
  if (canAptInstall(machine)) {
    installers.push({ label: "Debian's chromium package (apt-get install -y chromium)", steps: aptInstallSteps(["chromium"]) });
  }
  installers.push({
    label: "Playwright's Chromium (npx playwright install chromium)",
    steps: /** @type {[string, string[]][]} */ ([["npx", ["playwright", "install", "chromium"]]]),
  });
  return installers;
}

/**
 * A Chromium to drive: found, or obtained by the first installer that works. `{ path }` or `{ error }` (one line).
 * @param {{ env?: Record<string, string | undefined>, systemPaths?: string[], playwrightPath?: string, installers?: ReturnType<typeof installersFor>, run?: (steps: [string, string[]][]) => boolean, log?: (line: string) => void }} [options]
 */
export async function ensureChromium({
  env = process.env,
  systemPaths = SYSTEM_CHROMIUM_PATHS,
  installers = installersFor(),
  run = runSteps,
  log = (line) => console.log(`[chromium] ${line}`),
  ...options
} = {}) {
  const playwrightPath = "playwrightPath" in options ? options.playwrightPath : await playwrightChromiumPath();
  const lookup = () => findChromium({ env, systemPaths, playwrightPath, log });
  let found = lookup();
  for (const installer of installers) {
    if (found) break;
    log(`no Chromium found; installing ${installer.label}`);
    if (!run(installer.steps)) log(`${installer.label} could not be installed`);
    found = lookup();
  }
  return found ? { path: found } : { error: MISSING_BROWSER_LINE };
}

/** Debian's Japanese Gothic font: small (3.5 MB), and what Chromium draws the pages' Japanese with when a machine has none. */
export const JAPANESE_FONT_PACKAGE = "fonts-ipafont-gothic";

/** Whether fontconfig knows a font with Japanese glyphs (`fc-list :lang=ja`); undefined when it cannot be asked. */
export function hasJapaneseFont() {
  const result = spawnSync("fc-list", [":lang=ja", "family"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() !== "" : undefined;
}

/**
 * A font for the pages' Japanese, so that what the browser tests measure (text widths at 360 px) and the screenshots
 * they take are of real glyphs, not empty boxes: installed with Debian's package as root on Debian when fontconfig
 * has none. Not having one is said in one line, not fatal: the tests' checks hold either way.
 * @param {{ has?: () => boolean | undefined, installers?: ReturnType<typeof installersFor>, run?: (steps: [string, string[]][]) => boolean, log?: (line: string) => void }} [options]
 */
export function ensureJapaneseFont({ has = hasJapaneseFont, installers = installersFor(), run = runSteps, log = (line) => console.log(`[chromium] ${line}`) } = {}) {
  if (has() !== false) return;
  const apt = installers.find((installer) => installer.steps.some(([command]) => command === "apt-get"));
  if (apt) {
    log(`no Japanese font found; installing Debian's ${JAPANESE_FONT_PACKAGE}`);
    if (run([["apt-get", ["install", "-y", "-qq", JAPANESE_FONT_PACKAGE]]]) || (run([["apt-get", ["update", "-qq"]]]) && run([["apt-get", ["install", "-y", "-qq", JAPANESE_FONT_PACKAGE]]]))) return;
  }
  log("no Japanese font: pages will be drawn with empty boxes for Japanese (install one, e.g. Debian's fonts-ipafont-gothic)");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  ensureJapaneseFont();
  const result = await ensureChromium();
  if ("error" in result) {
    console.error(result.error);
    process.exit(1);
  }
  console.log(result.path);
}
