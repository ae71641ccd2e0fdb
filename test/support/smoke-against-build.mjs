// The smoke set against a production build started as an operator would, for `.ci/run`:
//   node test/support/smoke-against-build.mjs postgres://user@host:5432/any
// makes a fresh database `gm_smoke` on that PostgreSQL server, starts the build on it as `npm start` would (its flags
// and variables, server/start-command.mjs) as a separate process (NODE_ENV=production, a free port, a DATA_DIR of its
// own; the build is made first when there is none), runs `npm run test:smoke` against it through E2E_BASE_URL, then
// stops the server (SIGTERM, as a deploy would) and drops the database. Without a URL (argument or
// SMOKE_DATABASE_URL) the server uses its embedded database instead, and says so. The report goes to
// .test-reports/smoke-html (the full suite's e2e-html stays); the server's log to .test-reports/smoke-server.log.
// Exits with the smoke set's status.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { productionStart } from "../../server/start-command.mjs";

const DATABASE_NAME = "gm_smoke";
const reports = path.resolve(".test-reports");
const serverLog = path.join(reports, "smoke-server.log");
const log = (line) => console.log(`[smoke-against-build] ${line}`);

const adminUrl = process.argv[2] || process.env.SMOKE_DATABASE_URL || "";
if (adminUrl && !/^postgres(ql)?:\/\//.test(adminUrl)) {
  console.error(`[smoke-against-build] not a postgres:// URL: ${adminUrl}`);
  process.exit(2);
}

/** Drops (when there) and, unless `dropOnly`, creates the smoke database on the server of `adminUrl`. */
async function resetDatabase({ dropOnly = false } = {}) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE_NAME} WITH (FORCE)`);
    if (!dropOnly) await admin.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await admin.end();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl, server, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode} before it answered`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no answer from ${baseUrl}/healthz within ${timeoutMs / 1000} s`);
}

function stop(server) {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => server.kill("SIGKILL"), 30_000);
    server.once("exit", () => {
      clearTimeout(killer);
      resolve(undefined);
    });
    server.kill("SIGTERM");
  });
}

const tail = (file, lines = 40) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n") : "");

fs.mkdirSync(reports, { recursive: true });
if (!fs.existsSync("build/index.js")) {
  log("no build yet: npm run build");
  if (spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" }).status !== 0) {
    console.error("[smoke-against-build] the build failed");
    process.exit(1);
  }
}

let databaseUrl;
if (adminUrl) {
  await resetDatabase();
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE_NAME}`;
  databaseUrl = url.toString();
  log(`a fresh PostgreSQL database ${DATABASE_NAME} on ${url.host}`);
} else {
  log("no PostgreSQL URL given (argument or SMOKE_DATABASE_URL): the server uses its embedded database");
}

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-smoke-"));
// What an operator sets, and nothing of the test suite's own (its ports, its database, its mail server).
const serverEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(E2E_|TEST_DATABASE_URL$|DATABASE_URL$|SMTP_URL$|PORT$|HOST$)/.test(name)));
// As `npm start` runs it: its memory settings (ADR 047).
const start = productionStart();
Object.assign(serverEnv, { ...start.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, SITE_URL: baseUrl, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
const logFile = fs.openSync(serverLog, "w");
log(`starting the production build: node ${[...start.flags, "build/index.js"].join(" ")} on ${baseUrl} (log: ${path.relative(process.cwd(), serverLog)})`);
const server = spawn(process.execPath, [...start.flags, "build/index.js"], { env: serverEnv, stdio: ["ignore", logFile, logFile] });

let status = 1;
try {
  await waitForHealth(baseUrl, server);
  log(`${baseUrl} is up; npm run test:smoke against it`);
  const scripts = JSON.parse(fs.readFileSync("package.json", "utf8")).scripts ?? {};
  // `npm run test:smoke` once package.json has it; the same script directly until then.
  const [command, args] = scripts["test:smoke"] ? ["npm", ["run", "test:smoke", "--silent"]] : [process.execPath, ["test/smoke.mjs"]];
  status =
    spawnSync(command, args, {
      stdio: "inherit",
      env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_HTML_REPORT: ".test-reports/smoke-html", E2E_JSON_REPORT: ".test-reports/smoke.json" },
    }).status ?? 1;
} catch (error) {
  console.error(`[smoke-against-build] ${String(error instanceof Error ? error.message : error)}\n${tail(serverLog)}`);
} finally {
  await stop(server);
  fs.closeSync(logFile);
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (adminUrl) await resetDatabase({ dropOnly: true }).catch((error) => log(`could not drop ${DATABASE_NAME}: ${String(error)}`));
}
if (status !== 0) console.error(`[smoke-against-build] the smoke set failed against the production build (server log: ${path.relative(process.cwd(), serverLog)})`);
process.exit(status);
