// `npm run bench:ledger [-- --wallets 1000 --writers 100 --seconds 10 --pool 10]`: coin transfers per second on
// PostgreSQL, beside pgbench's TPC-B on the same server.
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) is an admin URL: the bench creates two scratch
// databases there and drops them at the end, also on failure or Ctrl-C. In one it migrates the schema, funds
// `--wallets` users through creditPurchase, then runs `--writers` concurrent writers for `--seconds`, each doing tips
// between random wallets through the ledger's `transfer` verb in its own transaction, as a feature would. In the other
// it runs `pgbench -i -s 10` then `pgbench -c 50 -j 2 -T <seconds>`. Prints transfers/s, latency, retries, refusals,
// the ledger's invariant, negative balances, pgbench's TPS and the ratio, and the CPU share busy and stolen during
// each timed part (the machine has two cores: read the figures with that share in mind).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { sql } from "kysely";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../../app/infra/db";
import { DEFAULT_PLATFORM_FEE_PERCENT } from "../../app/lib/constants";
import { CoinError, creditPurchase, ledgerProblems, transfer } from "../../app/models/coins.server";
import { migrateToLatest } from "../../server/db/migrate";
import { admin, adminUrl, databaseUrl } from "./bench-database";

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  const value = index > 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
  return value;
};
const WALLETS = arg("wallets", 1000);
const WRITERS = arg("writers", 100);
const SECONDS = arg("seconds", 10);
// Connections the writers share, like the app's DATABASE_POOL_MAX: more writers than connections wait for one.
// As many connections as the app's own pool (DATABASE_POOL_MAX): on 2 cores, 10 did better than 20 or 40.
const POOL = arg("pool", 10);
const FUNDS = 500; // coins each wallet is bought at the start
const MAX_TIP = 100;
const PGBENCH = "/usr/bin/pgbench";
const PGBENCH_CLIENTS = 50;

const suffix = randomBytes(4).toString("hex");
const ledgerDb = `gm_bench_ledger_${suffix}`;
const pgbenchDb = `gm_bench_pgbench_${suffix}`;

/** The machine's CPU time so far (all cores), from /proc/stat: busy, idle and stolen by the hypervisor. */
function cpuTimes() {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fs
    .readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .split(/\s+/)
    .slice(1)
    .map(Number) as number[];
  return { busy: user! + nice! + system! + irq! + softirq!, idle: idle! + iowait!, steal: steal! };
}
function cpuShare(before: ReturnType<typeof cpuTimes>, after: ReturnType<typeof cpuTimes>) {
  const delta = (key: keyof typeof before) => after[key] - before[key];
  const total = delta("busy") + delta("idle") + delta("steal");
  const pct = (key: keyof typeof before) => `${((100 * delta(key)) / total).toFixed(0)} %`;
  return `CPU busy ${pct("busy")}, stolen ${pct("steal")}`;
}
const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(", ");

let database: DatabaseHandle | undefined;
const created: string[] = [];
let child: ChildProcess | undefined;
let cleaning: Promise<void> | undefined;
/** Closes the pool, stops pgbench and drops the scratch databases; safe to call more than once. */
function cleanUp() {
  cleaning ??= (async () => {
    child?.kill("SIGTERM");
    await database?.close().catch(() => {});
    for (const name of created) {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error) => console.error(`could not drop ${name}: ${error.message}`));
    }
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: dropping the scratch databases…`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const isRetryable = (error: unknown) => {
  const code = (error as { code?: unknown })?.code;
  return code === "40001" || code === "40P01"; // serialization failure, deadlock detected
};
// Round trips: every statement Kysely sends (BEGIN and COMMIT included) is one pg Client#query call.
let roundTrips = 0;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  roundTrips++;
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function benchLedger() {
  await admin(`CREATE DATABASE ${ledgerDb}`);
  created.push(ledgerDb);
  database = await openDatabase({ url: databaseUrl(ledgerDb), poolMax: POOL });
  const { db } = database;
  await migrateToLatest(db);

  console.log(`setting up: ${WALLETS} users with ${FUNDS} coins each…`);
  const users = Array.from({ length: WALLETS }, () => randomUUID());
  for (let start = 0; start < users.length; start += 500) {
    const batch = users.slice(start, start + 500);
    await db.insertInto("users").values(batch.map((id, index) => ({ id, display_name: `bench${start + index}` }))).execute();
  }
  const queue = [...users];
  await Promise.all(
    Array.from({ length: POOL }, async () => {
      for (let userId = queue.shift(); userId; userId = queue.shift()) {
        const id = userId;
        await db.transaction().execute((trx) => creditPurchase(trx, { userId: id, coins: FUNDS, reference: `bench:fund:${id}` }));
      }
    }),
  );

  let transfers = 0;
  let refusals = 0;
  let retries = 0;
  let sequence = 0;
  const latencies: number[] = [];
  const pick = () => users[Math.floor(Math.random() * users.length)]!;
  console.log(`running: ${WRITERS} writers on a pool of ${POOL} connections for ${SECONDS} s (load average ${loadAverage()})…`);
  const cpuBefore = cpuTimes();
  const roundTripsBefore = roundTrips;
  const nodeCpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (performance.now() < deadline) {
        const fromId = pick();
        let toId = pick();
        while (toId === fromId) toId = pick();
        const amount = 1 + Math.floor(Math.random() * MAX_TIP);
        const reference = `bench:tip:${++sequence}`;
        const begun = performance.now();
        for (;;) {
          try {
            await db
              .transaction()
              .execute((trx) => transfer(trx, { fromId, toId, amount, purpose: "tip", reference, feePercent: DEFAULT_PLATFORM_FEE_PERCENT }));
            transfers++;
            break;
          } catch (error) {
            if (error instanceof CoinError && error.code === "insufficient_coins") {
              refusals++;
              break;
            }
            if (!isRetryable(error)) throw error;
            retries++;
          }
        }
        latencies.push(performance.now() - begun);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuShare(cpuBefore, cpuTimes());
  const nodeCpu = process.cpuUsage(nodeCpuBefore);
  const attempts = transfers + refusals + retries;

  latencies.sort((a, b) => a - b);
  const rate = transfers / elapsed;
  console.log(`ledger: ${transfers} transfers in ${elapsed.toFixed(1)} s = ${rate.toFixed(0)} transfers/s`);
  console.log(`  latency (transaction asked for → committed or refused, pool wait included): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
  console.log(`  retries (serialization failure or deadlock): ${retries}`);
  console.log(`  refusals (insufficient coins): ${refusals}`);
  console.log(`  round trips per transfer (BEGIN and COMMIT or ROLLBACK included): ${((roundTrips - roundTripsBefore) / attempts).toFixed(2)}`);
  console.log(`  ${cpu}; this process (the writers, Kysely, pg) used ${((nodeCpu.user + nodeCpu.system) / 1000 / attempts).toFixed(2)} ms of CPU per transfer`);

  const problems = await ledgerProblems(db);
  const { rows } = await sql<{ negative: number; sent: number }>`
    select
      (select count(*) from coin_wallets where purchased < 0 or earned < 0) as negative,
      (select count(*) from coin_transactions where kind = 'tip_sent') as sent
  `.execute(db);
  const { negative, sent } = rows[0]!;
  console.log(`invariant (ledgerProblems): ${problems.length} violations`);
  for (const problem of problems.slice(0, 10)) console.log(`  ${problem}`);
  console.log(`negative balances: ${negative}`);
  if (sent !== transfers) console.log(`  the log has ${sent} tip_sent rows for ${transfers} transfers!`);
  await database.close();
  database = undefined;
  return { rate, ok: problems.length === 0 && Number(negative) === 0 && sent === transfers };
}

/** Runs pgbench with the admin URL's host, port and user; answers its output. */
function pgbench(args: string[]) {
  const url = new URL(adminUrl);
  const connection = ["-h", url.hostname, "-p", url.port || "5432", "-U", decodeURIComponent(url.username || "postgres")];
  return new Promise<string>((resolve, reject) => {
    child = spawn(PGBENCH, [...connection, ...args], {
      env: { ...process.env, ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      child = undefined;
      if (code === 0) resolve(output);
      else reject(new Error(`pgbench ${args.join(" ")} exited with ${code}:\n${output}`));
    });
  });
}

async function benchPgbench() {
  await admin(`CREATE DATABASE ${pgbenchDb}`);
  created.push(pgbenchDb);
  console.log("pgbench: initializing (-i -s 10)…");
  await pgbench(["-i", "-q", "-s", "10", pgbenchDb]);
  console.log(`pgbench: TPC-B, ${PGBENCH_CLIENTS} clients, 2 threads, ${SECONDS} s (load average ${loadAverage()})…`);
  const cpuBefore = cpuTimes();
  const output = await pgbench(["-c", String(PGBENCH_CLIENTS), "-j", "2", "-T", String(SECONDS), pgbenchDb]);
  const cpu = cpuShare(cpuBefore, cpuTimes());
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1]);
  const latency = /latency average = ([\d.]+ ms)/.exec(output)?.[1];
  if (!Number.isFinite(tps)) throw new Error(`could not read pgbench's TPS:\n${output}`);
  console.log(`pgbench: ${tps.toFixed(0)} TPS, latency average ${latency}`);
  console.log(`  ${cpu}`);
  return tps;
}

let ok = false;
try {
  console.log(`bench:ledger on ${new URL(adminUrl).host}, ${os.cpus().length} cores, load average ${loadAverage()}`);
  const ledger = await benchLedger();
  const tps = await benchPgbench();
  console.log(`ratio: ${ledger.rate.toFixed(0)} transfers/s ÷ ${tps.toFixed(0)} pgbench TPS = ${(ledger.rate / tps).toFixed(2)}`);
  ok = ledger.ok;
} catch (error) {
  // After Ctrl-C the writers fail on the closed pool: that is not the bench's failure to report.
  if (!cleaning) console.error(error);
} finally {
  await cleanUp();
}
process.exit(ok ? 0 : 1);
