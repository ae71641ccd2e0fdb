// `npm test`: the everyday run, within 12 minutes on the 2-core machine (ADR 067): the floors check, typecheck, build,
// unit and integration tests (vitest) on one engine (PostgreSQL when TEST_DATABASE_URL is set, else PGlite), and the
// end-to-end flows (Playwright), then one closing line counted from the runners' own JSON reports:
// `Tests: N passed, M failed`. It runs every behaviour's test once.
// `npm test -- --all` is what CI runs: the same, and the rest of the matrix beside each behaviour's one run: with
// TEST_DATABASE_URL the integration files whose outcome can depend on the engine again on PGlite, the drills (an
// outage, a restart, a deploy, an overload, the scale bench: DRILLS below), the flows tagged @matrix (the same flow at
// the desktop's width, the accessibility sweep at 1280 px, the phone's bar swept without JavaScript) and the cluster
// test (two replicas behind HAProxy, on PostgreSQL and Redis), after the others.
// The @smoke flows are in neither: they repeat, as one journey per screen size, steps that other flows check, and
// are a deployment's check (`npm run test:smoke`; `.ci/run` runs them against a production server), ADR 061.
// `npm test -- --all --skip cluster` leaves out the cluster test, for a caller that runs it in a step of its own
// (`.ci/run`, on the build this made).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { useProjectNode } from "../.ci/node.mjs";

// On a Node older than engines allows, the whole run starts again under the pinned one (ADR 058); the rest of the
// runner's modules load only after, so nothing of theirs runs on the old Node.
await useProjectNode();
const { ensureHaproxy } = await import("../server/cluster/haproxy.mjs");
const { ensureChromium, ensureJapaneseFont } = await import("./support/chromium.mjs");
const { ensureVideoEncoder } = await import("./support/ffmpeg.mjs");

const PARTS = ["cluster"];
/**
 * Integration files whose outcome does not depend on the database engine (ADR 059): in `npm test -- --all` with
 * TEST_DATABASE_URL they run once, on PostgreSQL, and the PGlite pass leaves them out. What they check is the HTTP surface, a protocol or a
 * process (tokens and cookies, body limits, sockets' handshake, OAuth with a stand-in, error pages, the manifest, logs
 * and metrics, image processing), over plain reads and writes that the other files run on both engines. Every other
 * file (anything with transactions, locks, concurrency, money, the sweeper, search, paging, migrations, backups, or
 * each route's loader) runs on both; a new file does too unless it is added here. database.test.ts runs PGlite in
 * the PostgreSQL pass itself.
 */
const ENGINE_INDEPENDENT = [
  "auth", // supabase-js against the embedded auth endpoints: tokens, refresh, sign-out
  "body-limits", // bodies over a limit answered before they are read
  "browser-session", // the browser's cookies and socket token
  "chat-socket", // chat:send over the socket: acks and who hears (storage itself: chat, chat-retry, chat-crash)
  "database", // runs on PGlite and PostgreSQL in one pass
  "discord", // hosted Supabase's Discord sign-in settings
  "discord-guilds", // a privacy setting and what a profile shows
  "discord-oauth", // the OAuth flow against a stand-in Discord
  "two-step-hosted", // the security pages against another server's auth as a hosted one (two-step: both engines)
  "errors", // error pages and statuses
  "inquiry", // the contact form's honeypot and mail
  "manifest", // the web manifest and icons
  "object-storage", // an S3-API bucket (s3rver) and npm run storage:copy; no database
  "operations", // logs, metrics and health answers
  "platform", // the pages' titles and headings
  "uploads", // image bytes, re-encoding, caps and headers; files on disk
];
/**
 * The drills (ADR 067): a deployment's or an outage's behaviour rather than a feature's, each a few servers and tens of
 * seconds; they run in `npm test -- --all` (CI), not in the everyday run. The features they exercise have tests of
 * their own in the other files.
 */
const DRILLS = [
  "database-outage", // the database out of reach mid-traffic (a PostgreSQL of the test's own, stopped and started)
  "database-return", // the database back: listeners, the outbox and sockets catch up
  "lifecycle", // graceful shutdown and a rolling deploy
  "overload", // a burst past the limits: refusals, not a fall
  "redis-restart", // Redis restarted under two replicas
  "scale-bench", // `npm run bench:scale` at a tenth of its size, against its targets
];
const { values: options } = parseArgs({ options: { skip: { type: "string", multiple: true, default: [] }, all: { type: "boolean", default: false } } });
const everything = options.all;
const skip = new Set(options.skip);
for (const part of skip) {
  if (!PARTS.includes(part)) {
    console.error(`npm test: --skip takes ${PARTS.join(" or ")}, not ${part}`);
    process.exit(2);
  }
}
if (skip.size > 0 && !everything) {
  console.error("npm test: --skip leaves a part out of `npm test -- --all`; the everyday run has none of them");
  process.exit(2);
}
if (skip.size > 0) console.log(`npm test: leaving out ${[...skip].join(" and ")} (--skip)`);
console.log(
  everything
    ? "npm test: everything (--all): both engines, the drills, the @matrix flows and the cluster, as CI runs it"
    : "npm test: the everyday run, each behaviour once; `npm test -- --all` adds the rest of the matrix, as CI runs it (docs/qa.md)",
);

const reports = path.resolve(".test-reports");
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

let passed = 0;
let failed = 0;
const notes = [];
/**
 * Each failed test by name, repeated at the end of the run: a CI log shown by its last lines (the end-to-end flows' own
 * output is long) still says which tests failed in every stage, not only the last stage's.
 */
const failures = [];

const runStarted = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

function run(label, command, args, env = process.env) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env });
  console.log(`◀ ${label}: exit ${result.status} in ${seconds(started)}`);
  return result.status === 0;
}

/** As run(), without blocking this process: the stages beside it are heard as they end. */
function runAwaited(label, command, args) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", (error) => console.error(`${label}: ${error.message}`));
    child.on("close", (status) => {
      console.log(`◀ ${label}: exit ${status} in ${seconds(started)}`);
      resolve(status === 0);
    });
  });
}

/**
 * A stage run beside another (ADR 059): its output is held and printed in one piece when it ends, between its own
 * ▶/◀ lines, so the two stages' lines never interleave. Resolves to whether it passed.
 */
function runBeside(label, command, args, beside) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")} (beside ${beside}; its output when it ends)`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (status) => {
      const text = Buffer.concat(output).toString().trimEnd();
      console.log(`\n▶ ${label} (output)${text ? `\n${text}` : ""}`);
      console.log(`◀ ${label}: exit ${status} in ${seconds(started)}`);
      resolve(status === 0);
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function vitest(label, projects, env, exclude = []) {
  const outputFile = path.join(reports, `vitest-${label}.json`);
  const projectArgs = projects.flatMap((project) => ["--project", project]);
  const excludeArgs = exclude.flatMap((file) => ["--exclude", file]);
  const ok = run(`vitest (${label})`, "npx", ["vitest", "run", ...projectArgs, ...excludeArgs, "--reporter=default", "--reporter=json", `--outputFile=${outputFile}`], env);
  const report = readJson(outputFile);
  if (!report) {
    failed += 1;
    notes.push(`vitest (${label}) wrote no report`);
    return;
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const file of report.testResults) {
    const name = path.relative(process.cwd(), file.name);
    for (const test of file.assertionResults) if (test.status === "failed") failures.push(`vitest (${label}) ${name} › ${test.fullName}`);
    if (file.status === "failed" && file.assertionResults.length === 0) failures.push(`vitest (${label}) ${name}: the file failed to load`);
  }
  // A file that failed to load has no tests to count; count it once.
  const brokenFiles = report.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0).length;
  failed += brokenFiles;
  if (!ok && report.numFailedTests + brokenFiles === 0) {
    failed += 1;
    notes.push(`vitest (${label}) exited with an error`);
  }
}

// The floors and circles (ADR 036) and the typecheck read only the sources: they run beside the build, which waits on
// neither (ADR 059). An import that climbs a floor or closes a circle fails the run, and so does a file in app/ or
// server/ over 400 lines (ADR 055).
const checks = Promise.all([
  runBeside("floors", "npm", ["run", "--silent", "lint:deps"], "the build").then((ok) => {
    if (ok) return;
    failed += 1;
    notes.push("the floors check failed: an import climbs a floor or closes a circle, a file is over 400 lines or points outside the repository, or dependency-cruiser could not run (npm run lint:deps)");
  }),
  runBeside("typecheck", "npx", ["tsc", "--noEmit"], "the build").then((ok) => {
    if (ok) return;
    failed += 1;
    notes.push("typecheck failed");
  }),
]);
const built = await runAwaited("build", "npm", ["run", "build", "--silent"]);
await checks;

if (!built) {
  failed += 1;
  notes.push("build failed: integration and end-to-end tests not run");
} else {
  const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
  vitest(engine, ["unit", "integration"], process.env, everything ? [] : DRILLS.map((name) => `test/integration/${name}.test.ts`));
  if (everything && process.env.TEST_DATABASE_URL) {
    // The second engine's pass: only the files whose outcome can depend on the engine (ADR 059).
    // TEST_SECOND_ENGINE_PASS tells the files that also hold engine-independent parts (the fuzz table's NUL rule) to
    // leave those out here.
    const { TEST_DATABASE_URL: _, ...pgliteEnv } = process.env;
    vitest("pglite", ["integration"], { ...pgliteEnv, TEST_SECOND_ENGINE_PASS: "1" }, ENGINE_INDEPENDENT.map((name) => `test/integration/${name}.test.ts`));
  }
  if (everything && process.env.TEST_DATABASE_URL && !skip.has("cluster")) {
    // Two replicas behind HAProxy on PostgreSQL and Redis (test/cluster/): alone, after the others. HAProxy is found
    // or installed first (as the browser is below), so that its installation does not count against the test's time.
    const haproxy = ensureHaproxy();
    if ("error" in haproxy) {
      failed += 1;
      notes.push(haproxy.error);
    } else {
      vitest("cluster", ["cluster"], process.env);
    }
  }

  ensureJapaneseFont();
  // Videos of failed flows only when asked (E2E_VIDEO=1, playwright.config.ts), and then when ffmpeg can be had.
  if (process.env.E2E_VIDEO === "1") {
    const video = ensureVideoEncoder();
    if ("error" in video) console.log(`[ffmpeg] ${video.error}`);
  }
  const browser = await ensureChromium();
  if ("error" in browser) {
    failed += 1;
    notes.push(browser.error);
  } else {
    playwright(browser.path);
  }
}

function playwright(chromiumPath) {
  const e2eOk = run("playwright", "npx", ["playwright", "test", "--grep-invert", everything ? "@smoke" : "@smoke|@matrix"], { ...process.env, CHROMIUM_PATH: chromiumPath, PLAYWRIGHT_JSON_OUTPUT_NAME: undefined });
  const e2e = readJson(path.join(reports, "e2e.json"));
  if (e2e?.stats) {
    passed += e2e.stats.expected + e2e.stats.flaky;
    failed += e2e.stats.unexpected;
    const walk = (suite, titles) => {
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests) if (test.status === "unexpected") failures.push(`playwright ${[...titles.slice(1), spec.title].join(" › ")} (${spec.file}:${spec.line})`);
    };
    for (const suite of e2e.suites ?? []) walk(suite, [suite.title]);
    if (!e2eOk && e2e.stats.unexpected === 0) {
      failed += 1;
      notes.push("playwright exited with an error");
    }
  } else {
    failed += 1;
    notes.push("playwright wrote no report");
  }
}

if (failures.length > 0) console.log(`\nFailed tests (${failures.length}):\n${failures.map((failure) => `✗ ${failure}`).join("\n")}`);
for (const note of notes) console.log(`! ${note}`);
const htmlReport = path.resolve(process.env.E2E_HTML_REPORT || ".test-reports/e2e-html");
if (fs.existsSync(htmlReport)) console.log(`HTML report of the end-to-end flows: ${htmlReport}/index.html (npx playwright show-report ${path.relative(process.cwd(), htmlReport)})`);
console.log(`npm test took ${seconds(runStarted)} in all`);
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
