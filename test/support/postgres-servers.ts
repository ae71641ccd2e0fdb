import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../../server/cluster/cluster";

const run = promisify(execFile);

/** PostgreSQL's own programs (initdb, pg_ctl, pg_basebackup): Debian's server package puts them here. */
export const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

/** Why this machine cannot run servers of a test's own, or undefined when it can. */
export function ownServersProblem() {
  for (const program of ["initdb", "pg_ctl", "pg_basebackup"]) {
    if (!fs.existsSync(path.join(PG_BIN, program))) return `${path.join(PG_BIN, program)} is missing`;
  }
  if (process.getuid?.() === 0 && !postgresUser()) return "running as root and there is no postgres user to run the servers as";
  return undefined;
}

/** initdb refuses to run as root: as root, the servers run as the machine's postgres user. */
function postgresUser() {
  try {
    const passwd = fs
      .readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((line) => line.startsWith("postgres:"));
    if (!passwd) return undefined;
    const [, , uid, gid] = passwd.split(":");
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return undefined;
  }
}

/** runuser sits in sbin, which a root shell's PATH may lack (a minimal environment, a CI runner's). */
function runuserPath() {
  return ["/usr/sbin/runuser", "/sbin/runuser"].find((candidate) => fs.existsSync(candidate)) ?? "runuser";
}

async function pgTool(program: string, args: string[]) {
  const file = path.join(PG_BIN, program);
  const user = process.getuid?.() === 0 ? postgresUser() : undefined;
  // runuser (util-linux) rather than the uid option: the tools read their user's environment, not root's.
  const [command, commandArgs] = user ? [runuserPath(), ["-u", "postgres", "--", file, ...args]] : [file, args];
  try {
    return await run(command, commandArgs, {
      cwd: os.tmpdir(),
      maxBuffer: 8 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message?: string };
    throw new Error(`${program} ${args.join(" ")} failed:\n${stdout || stderr ? `${stdout ?? ""}${stderr ?? ""}` : message}`);
  }
}

export interface PrimaryAndReplica {
  /** Admin URLs (user postgres, database postgres, trust auth) of the two servers. */
  primaryUrl: string;
  replicaUrl: string;
  /** The replica stops applying WAL (it keeps receiving it): a replica that lags. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Whether the replica has applied everything the primary has written. */
  caughtUp(): Promise<boolean>;
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  close(): Promise<void>;
}

/** A temporary directory for servers of a test's own, owned by the user they run as. */
function serversDirectory() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-pg-"));
  const user = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (user) fs.chownSync(dir, user.uid, user.gid);
  return dir;
}

/** postgresql.conf's lines for a server of a test's own on `port`, its socket in `dir`. */
const serverSettings = (dir: string, port: number) =>
  [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    // A test's data need not survive a power cut.
    "fsync = off",
    "synchronous_commit = off",
    "full_page_writes = off",
    "shared_buffers = 32MB",
    "max_connections = 50",
    "wal_level = replica",
    "max_wal_senders = 4",
    "hot_standby = on",
    "wal_receiver_status_interval = 1s",
    "",
  ].join("\n");

const initdb = (dataDir: string) => pgTool("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"]);
const pgStart = (dir: string, dataDir: string) =>
  pgTool("pg_ctl", ["-D", dataDir, "-l", path.join(dir, `${path.basename(dataDir)}.log`), "-w", "-t", "60", "start"]);
/** `immediate` (a crash, as a killed server), `fast` (what `pg_ctl stop` and a restart do: sessions ended, 57P01). */
const pgStop = (dataDir: string, mode: "immediate" | "fast" = "immediate") => pgTool("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "stop"]);

export interface OwnPostgres {
  /** Admin URL (user postgres, database postgres, trust auth). */
  url: string;
  /** Stops the server as a restart or an outage does (`pg_ctl stop -m fast`): every session ends, connections are refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own, for a test that stops it: `initdb` into a temporary directory, on a free port
 * of 127.0.0.1. The machine's shared server (5432) is never touched.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = serversDirectory();
  const dataDir = path.join(dir, "primary");
  const port = await freePort();
  try {
    await initdb(dataDir);
    fs.appendFileSync(path.join(dataDir, "postgresql.conf"), serverSettings(dir, port));
    await pgStart(dir, dataDir);
  } catch (error) {
    await pgStop(dataDir).catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await pgStop(dataDir, "fast");
      running = false;
    },
    async start() {
      await pgStart(dir, dataDir);
      running = true;
    },
    async close() {
      if (running) await pgStop(dataDir).catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A PostgreSQL primary and its streaming replica of the test's own: `initdb` and `pg_basebackup` into a temporary
 * directory, each server on a free port of 127.0.0.1. The machine's shared server (5432) is never touched.
 */
export async function startPrimaryAndReplica(): Promise<PrimaryAndReplica> {
  const dir = serversDirectory();
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const start = async (dataDir: string) => {
    await pgStart(dir, dataDir);
    if (!started.includes(dataDir)) started.push(dataDir);
  };
  const stop = (dataDir: string) => pgStop(dataDir);

  try {
    await initdb(primaryDir);
    fs.appendFileSync(path.join(primaryDir, "postgresql.conf"), serverSettings(dir, primaryPort));
    await start(primaryDir);
    await pgTool("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primaryPort),
      "-U",
      "postgres",
      "-D",
      replicaDir,
      "-R",
      "-X",
      "stream",
      "--no-sync",
    ]);
    // The copy carries the primary's settings; the later line wins.
    fs.appendFileSync(path.join(replicaDir, "postgresql.conf"), `port = ${replicaPort}\n`);
    await start(replicaDir);
  } catch (error) {
    for (const dataDir of started) await stop(dataDir).catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  const query = async <T extends pg.QueryResultRow>(url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl,
    replicaUrl,
    // A pause is requested, then takes effect at the next record: wait until it has, or a write right after it may
    // still be replayed.
    async pauseReplay() {
      await query(replicaUrl, "select pg_wal_replay_pause()");
      const deadline = Date.now() + 10_000;
      while ((await query<{ state: string }>(replicaUrl, "select pg_get_wal_replay_pause_state() as state"))[0]!.state !== "paused") {
        if (Date.now() > deadline) throw new Error("the replica's replay did not pause within 10 s");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    resumeReplay: async () => void (await query(replicaUrl, "select pg_wal_replay_resume()")),
    // Measured against the primary's insert position, not its write position (`pg_current_wal_lsn()`): with
    // synchronous_commit off, a commit returns before its record is written, so the write position can lag behind a
    // commit the test has seen, and a replica "caught up" to it may still lack that row.
    async caughtUp() {
      const [{ lsn }] = await query<{ lsn: string }>(primaryUrl, "select pg_current_wal_insert_lsn()::text as lsn");
      const [{ behind }] = await query<{ behind: boolean }>(replicaUrl, `select pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn as behind`);
      return !behind;
    },
    stopReplica: () => stop(replicaDir).then(() => undefined),
    startReplica: () => start(replicaDir),
    async close() {
      for (const dataDir of [replicaDir, primaryDir]) await stop(dataDir).catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
