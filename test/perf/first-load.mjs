// `npm run bench:first-load`: the JavaScript a browser fetches on a first visit to every page, signed out and signed
// in. Chromium (the e2e suite's) loads each page in a fresh context, waits until the network has been idle
// for 2 s after hydration and adds up every script response; each file is then sized as the server serves it gzip'd
// (the budget's unit) and brotli'd. Code that loads only when a person opens a dialog is listed apart. Then `/`,
// `/explore` and a ticket load under Slow 3G with a 4× slower CPU: when the first form is usable and when the page has
// hydrated. Exits 1 when a page is over budget.
//
// Starts the built server (`npm run build` first) on a free port with a fresh PGlite and demo data, unless BASE_URL
// points at a running one. `-- --no-throttle` skips the slow-connection part; `-- /path …` measures only those pages.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, ensureChromium } from "../support/chromium.mjs";
import {
  FIRST_LOAD_BUDGET_KB,
  findDemoIds,
  firstLoadPages,
  kb,
  largest,
  loadPage,
  scriptOf,
  signInContext,
  sizesOf,
} from "../support/first-load.mjs";

/** The dialogs every page offers, opened the way a person opens them. */
const DIALOGS = [
  {
    name: "coin purchase",
    open: async (/** @type {import("@playwright/test").Page} */ page) => {
      await page.getByRole("link", { name: /コイン/ }).first().click();
      await page.getByRole("dialog").waitFor();
    },
  },
  {
    name: "new post",
    open: async (/** @type {import("@playwright/test").Page} */ page) => {
      await page.goto(new URL("/feed", page.url()).href);
      await page.waitForSelector("html[data-hydrated]", { state: "attached" });
      await page.getByRole("link", { name: "投稿する" }).first().click();
      await page.getByRole("dialog").waitFor();
    },
  },
];

const args = process.argv.slice(2);
const throttle = !args.includes("--no-throttle");
const only = args.filter((arg) => arg.startsWith("/"));

const { base, stop } = await startServer();
const found = await ensureChromium();
if ("error" in found) {
  console.error(found.error);
  process.exit(1);
}
const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
const newContext = async (/** @type {boolean} */ signedIn) => {
  const context = await browser.newContext({ baseURL: base, locale: "ja-JP", timezoneId: "Asia/Tokyo" });
  if (signedIn) await signInContext(context, base);
  return context;
};

let exitCode = 0;
try {
  const probe = await newContext(true);
  const ids = await findDemoIds(probe.request);
  await probe.close();
  const pages = firstLoadPages(ids).filter((page) => !only.length || only.includes(page.path));

  console.log(`First-load JavaScript, KB as served gzip'd (brotli in brackets); budget ${FIRST_LOAD_BUDGET_KB.signedOut} signed out, ${FIRST_LOAD_BUDGET_KB.signedIn} signed in\n`);
  const header = ["page", "signed out", "signed in", "files", "largest files (signed in, else out; KB gz)"];
  const rows = [header];
  const over = [];
  for (const page of pages) {
    const columns = { signedOut: "—", signedIn: "—" };
    let files = "";
    let biggest = "";
    for (const signedIn of [false, true]) {
      if (!(signedIn ? page.signedIn : page.signedOut)) continue;
      const key = signedIn ? "signedIn" : "signedOut";
      const context = await newContext(signedIn);
      const load = await loadPage(context, new URL(page.path, base).href);
      await context.close();
      const sized = await sizesOf(load.scripts);
      const gzip = sized.reduce((sum, script) => sum + script.gzip, 0);
      const br = sized.every((script) => script.br !== undefined) ? sized.reduce((sum, script) => sum + (script.br ?? 0), 0) : undefined;
      columns[key] = `${kb(gzip)}${br === undefined ? "" : ` (${kb(br)})`}`;
      files = files ? `${files} / ${sized.length}` : String(sized.length);
      biggest = largest(sized);
      if (gzip > FIRST_LOAD_BUDGET_KB[key] * 1024) over.push(`${page.path} ${key === "signedIn" ? "signed in" : "signed out"}: ${kb(gzip)} KB (${largest(sized, 6)})`);
    }
    rows.push([page.path, columns.signedOut, columns.signedIn, files, biggest]);
  }
  printTable(rows);

  console.log("\nLoaded only when a person opens a dialog (not first-load), signed in on /:");
  for (const dialog of DIALOGS) {
    const context = await newContext(true);
    const load = await loadPage(context, new URL("/", base).href);
    const before = new Set(load.scripts.map((script) => script.url));
    const later = [];
    load.page.on("requestfinished", (request) => {
      if (request.resourceType() === "script" && !before.has(request.url())) later.push(scriptOf(request));
    });
    await dialog.open(load.page);
    await load.page.waitForTimeout(1000);
    const sized = await sizesOf(later);
    console.log(`  ${dialog.name.padEnd(22)} ${kb(sized.reduce((sum, script) => sum + script.gzip, 0)).padStart(6)} KB gz in ${sized.length} files (${largest(sized) || "nothing new"})`);
    await context.close();
  }

  if (throttle) {
    console.log("\nSlow 3G (400 kbps down and up, 400 ms RTT) with a 4× slower CPU, signed out, cold cache; ms from navigation:");
    printTable([["page", "first form usable", "hydrated", "scripts KB (wire)"], ...(await throttledRows([`/`, `/explore`, `/tickets/${ids.listingId}`]))]);
  }

  if (over.length) {
    exitCode = 1;
    console.log(`\nOver budget:\n  ${over.join("\n  ")}`);
  } else {
    console.log("\nEvery page is within budget.");
  }
} finally {
  await browser.close();
  stop();
}
process.exit(exitCode);

/** Each page once under throttling: when its first form is usable and when it has hydrated. */
async function throttledRows(/** @type {string[]} */ paths) {
  const rows = [];
  for (const pagePath of paths) {
    const context = await newContext(false);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const marks = /** @type {Record<string, number>} */ ({});
      Object.assign(window, { __firstLoadMarks: marks });
      new MutationObserver((_, observer) => {
        if (!marks.form && document.querySelector("main form, form")) {
          // Usable once painted: the stylesheet blocks rendering, and a frame is drawn only after it has loaded.
          requestAnimationFrame(() => (marks.form ??= performance.now()));
        }
        if (document.documentElement.hasAttribute("data-hydrated")) {
          marks.hydrated ??= performance.now();
          observer.disconnect();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-hydrated"] });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    let wire = 0;
    page.on("requestfinished", (request) => {
      if (request.resourceType() === "script") void request.sizes().then((sizes) => (wire += sizes.responseBodySize));
    });
    await page.goto(new URL(pagePath, base).href, { waitUntil: "load", timeout: 120_000 });
    await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 120_000 });
    await page.waitForTimeout(500);
    const marks = await page.evaluate(() => /** @type {{ __firstLoadMarks: Record<string, number> }} */ (/** @type {unknown} */ (window)).__firstLoadMarks);
    rows.push([pagePath, marks.form ? String(Math.round(marks.form)) : "no form", String(Math.round(marks.hydrated)), kb(wire)]);
    await context.close();
  }
  return rows;
}

function printTable(/** @type {string[][]} */ rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? "")].length)));
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => (column === 0 || column === row.length - 1 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  ").trimEnd());
    if (index === 0) console.log(widths.map((width) => "-".repeat(width)).join("  "));
  }
}

/** The built server on a free port with a fresh PGlite and demo data, or BASE_URL's. */
async function startServer() {
  if (process.env.BASE_URL) return { base: process.env.BASE_URL, stop: () => {} };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-first-load-"));
  const server = spawn(process.execPath, ["build/index.js"], {
    env: { ...process.env, NODE_ENV: "production", ALLOW_DEMO_ACCOUNTS: "true", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const port = /GamerMatch: http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    server.on("exit", () => reject(new Error(`server exited:\n${out}`)));
  });
  return {
    base: /** @type {string} */ (url),
    stop: () => {
      server.kill("SIGTERM");
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
