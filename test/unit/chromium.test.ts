import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureChromium, ensureJapaneseFont, findChromium, installersFor, JAPANESE_FONT_PACKAGE, MISSING_BROWSER_LINE } from "../support/chromium.mjs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-chromium-"));
const nowhere = path.join(dir, "no-such-browser");
const executable = (name: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, "#!/bin/sh\n", { mode: 0o755 });
  return file;
};
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("finding the end-to-end tests' Chromium", () => {
  it("takes CHROMIUM_PATH, then the system's Chromium, then Playwright's own", () => {
    const own = executable("own");
    const system = executable("system");
    const playwright = executable("playwright");
    expect(findChromium({ env: { CHROMIUM_PATH: own }, systemPaths: [system], playwrightPath: playwright })).toBe(own);
    expect(findChromium({ env: {}, systemPaths: [nowhere, system], playwrightPath: playwright })).toBe(system);
    expect(findChromium({ env: {}, systemPaths: [nowhere], playwrightPath: playwright })).toBe(playwright);
  });

  it("passes over a CHROMIUM_PATH that points nowhere, and says so", () => {
    const system = executable("system-2");
    const lines: string[] = [];
    expect(findChromium({ env: { CHROMIUM_PATH: nowhere }, systemPaths: [system], log: (line) => lines.push(line) })).toBe(system);
    expect(lines).toEqual([`CHROMIUM_PATH=${nowhere} is not an executable file; looking for another Chromium`]);
  });

  it("does not take a file that cannot be run", () => {
    const plain = path.join(dir, "not-executable");
    fs.writeFileSync(plain, "", { mode: 0o644 });
    expect(findChromium({ env: { CHROMIUM_PATH: plain }, systemPaths: [dir] })).toBeUndefined();
  });
});

describe("obtaining one when there is none", () => {
  it("installs Debian's package as root on Debian, else Playwright's download", () => {
    const labels = (options: Parameters<typeof installersFor>[0]) => installersFor(options).map((installer) => installer.steps.map((step) => step.flat().join(" ")));
    expect(labels({ platform: "linux", uid: 0, debian: true, hasApt: true })).toEqual([
      ["apt-get update -qq", "apt-get install -y -qq chromium"],
      ["npx playwright install chromium"],
    ]);
    expect(labels({ platform: "linux", uid: 1000, debian: true, hasApt: true })).toEqual([["npx playwright install chromium"]]);
    expect(labels({ platform: "darwin", uid: 501, debian: false, hasApt: false })).toEqual([["npx playwright install chromium"]]);
  });

  it("says what it is doing, and uses what the installer put there", async () => {
    const target = path.join(dir, "installed-chromium");
    const lines: string[] = [];
    const result = await ensureChromium({
      env: {},
      systemPaths: [target],
      playwrightPath: undefined,
      installers: [{ label: "a test installer", steps: [["install", [target]]] }],
      run: () => (fs.writeFileSync(target, "#!/bin/sh\n", { mode: 0o755 }), true),
      log: (line) => lines.push(line),
    });
    expect(result).toEqual({ path: target });
    expect(lines).toEqual(["no Chromium found; installing a test installer"]);
  });

  it("with CHROMIUM_PATH pointing nowhere, no system browser and every install failing, reports one clear line", async () => {
    const lines: string[] = [];
    const result = await ensureChromium({
      env: { CHROMIUM_PATH: nowhere },
      systemPaths: [path.join(dir, "no-system-chromium")],
      playwrightPath: path.join(dir, "no-playwright-chromium"),
      installers: installersFor({ platform: "linux", uid: 0, debian: true, hasApt: true }),
      run: () => false,
      log: (line) => lines.push(line),
    });
    expect(result).toEqual({ error: MISSING_BROWSER_LINE });
    expect(MISSING_BROWSER_LINE).not.toContain("\n");
    expect(MISSING_BROWSER_LINE).toMatch(/apt-get install chromium.*npx playwright install chromium.*CHROMIUM_PATH/);
    expect(lines.filter((line) => line.startsWith("no Chromium found; installing"))).toHaveLength(2);
  });
});

describe("a font for the pages' Japanese", () => {
  const debianRoot = installersFor({ platform: "linux", uid: 0, debian: true, hasApt: true });
  it("installs Debian's Japanese Gothic when fontconfig has no Japanese font, updating the package lists if it must", () => {
    const ran: string[] = [];
    ensureJapaneseFont({ has: () => false, installers: debianRoot, run: (steps) => (ran.push(steps.map((step) => step.flat().join(" ")).join("; ")), ran.length > 1), log: () => {} });
    expect(ran).toEqual([`apt-get install -y -qq ${JAPANESE_FONT_PACKAGE}`, "apt-get update -qq", `apt-get install -y -qq ${JAPANESE_FONT_PACKAGE}`]);
  });

  it("leaves a machine that has one, or cannot say, alone; where it cannot install one, says so in a line", () => {
    const ran: unknown[] = [];
    for (const has of [true, undefined]) ensureJapaneseFont({ has: () => has, installers: debianRoot, run: (steps) => (ran.push(steps), true), log: () => {} });
    expect(ran).toEqual([]);
    const lines: string[] = [];
    ensureJapaneseFont({ has: () => false, installers: installersFor({ platform: "darwin" }), run: () => true, log: (line) => lines.push(line) });
    expect(lines).toEqual([expect.stringMatching(/^no Japanese font: .*fonts-ipafont-gothic/)]);
  });
});
