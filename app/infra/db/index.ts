import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql, type LogEvent } from "kysely";
import pg from "pg";
import { log } from "~/infra/logger.server";
import { PGliteDialect } from "./pglite-dialect";
import type { Database, DB } from "./tables";

export type { Database } from "./tables";

export type DatabaseEngine = "postgres" | "pglite";

export interface DatabaseHandle {
  db: Database;
  engine: DatabaseEngine;
  /** Queries (or transactions) waiting for a connection right now: the depth of the database's queue of work. */
  queueDepth(): number;
  /** Connections running a query or transaction right now (the metrics' pool gauge). */
  inUse(): number;
  /** Answers whether the database responds within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel` (delivered when the notifying transaction commits, from any
   * process on the same database), with its payload. On PostgreSQL one connection of its own listens, reconnecting
   * if it drops; after a reconnection it calls `onNotify` once with no payload, for what it may have missed.
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<void>;
  /**
   * PGlite on disk only (undefined on PostgreSQL and in memory): holds the database still while `copy` reads the files
   * of its data directory (a backup, ADR 050). This handle's one connection is held, so no transaction is half done;
   * a CHECKPOINT writes every committed change into the files; PGlite's own queries are shut out while `copy` runs,
   * as its `dumpDataDir` does. `read` runs first, on the held connection: what it reads is what the files hold.
   */
  copyDataDir?<T>(steps: { read: (db: Database) => Promise<T>; copy: (directory: string, read: T) => Promise<void> }): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL. Without it the embedded PGlite is used. */
  url?: string;
  /** Where PGlite keeps its files; `memory://` keeps them in memory. */
  dataDir?: string;
  /** PGlite only: starts from this copy of a data directory (a tar made by PGlite's `dumpDataDir`), not an empty one. */
  loadDataDir?: Blob;
  poolMax?: number;
  slowQuery?: SlowQueryLog;
}

/** DATABASE_SLOW_QUERY_MS: queries at least `ms` long are logged (warn, `db: slow query`) with their SQL. */
export interface SlowQueryLog {
  ms: number;
  /** Their parameters too (DATABASE_SLOW_QUERY_PARAMETERS, for benches and local diagnosis: they can be personal data). */
  parameters?: boolean;
  /** Where a slow query goes instead of the log (a bench that explains them). */
  report?: (query: { ms: number; sql: string; parameters: readonly unknown[] }) => void;
}

/** Kysely's `log` for a slow-query log, or none. */
export function slowQueryLogger(options: SlowQueryLog | undefined) {
  if (!options || !(options.ms > 0)) return undefined;
  return (event: LogEvent) => {
    if (event.level !== "query" || event.queryDurationMillis < options.ms) return;
    const parameters = options.parameters ? event.query.parameters : [];
    if (options.report) return options.report({ ms: event.queryDurationMillis, sql: event.query.sql, parameters });
    log.warn(
      {
        event: "slow_query",
        ms: Math.round(event.queryDurationMillis * 10) / 10,
        sql: event.query.sql,
        ...(options.parameters ? { parameters } : {}),
      },
      "db: slow query",
    );
  };
}

/** How soon a LISTEN connection that was lost tries again (and again, until the database is back). */
const LISTEN_RETRY_MS = 1_000;

const INT8_OID = 20;
// bigint columns and count(*) come back as JS numbers on both engines; every amount we store is far below 2^53.
const parseInt8 = (value: string) => Number(value);

/**
 * Settings of every session the app opens (ADR 042, ADR 045): no parallel workers and no JIT compilation. The app's
 * queries are short and read indexes. A parallel plan adds a worker process to start, and on a busy 2-core machine
 * the leader waited 95 ms for a worker to finish 3 ms of work (bench:scale at SCALE=10: the unread count and the room
 * list, 100 ms each). JIT starts above an estimated cost, not a measured one: explore's keyword pages, estimated far
 * above what they read, spent 22 ms compiling each of their two queries of 3–10 ms.
 */
export const SESSION_OPTIONS = "-c max_parallel_workers_per_gather=0 -c jit=off";

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  let db: Database;
  let engine: DatabaseEngine;
  let queueDepth: () => number;
  let inUse: () => number;
  let listen: DatabaseHandle["listen"];
  let copyDataDir: DatabaseHandle["copyDataDir"];
  const stopListening: Array<() => Promise<void>> = [];
  if (options.url) {
    engine = "postgres";
    const pool = new pg.Pool({
      connectionString: options.url,
      options: SESSION_OPTIONS,
      max: options.poolMax ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client that loses its connection must not crash the process.
    pool.on("error", (error) => log.error({ err: error }, "db: an idle client failed"));
    // Nor one that is checked out: pg-pool listens to a client's errors only while it is idle, and a connection the
    // server ends under a query (a restart: 57P01, "Connection terminated unexpectedly") emits 'error' on its client
    // besides failing the query. The query's caller gets the failure (a 503: app/infra/db/errors.ts); the event only
    // needs a listener, or it is an uncaught exception (seen stopping PostgreSQL under load).
    pool.on("connect", (client) => client.on("error", (error) => log.warn({ err: error }, "db: a connection in use was lost")));
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: slowQueryLogger(options.slowQuery) });
    queueDepth = () => pool.waitingCount;
    inUse = () => pool.totalCount - pool.idleCount;
    const url = options.url;
    listen = async (channel, onNotify) => {
      let client: pg.Client | undefined;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      // Since when this listener has been away, and how often it tried to come back (one log line each way, not one a second).
      let lostAt: number | undefined;
      let attempts = 0;
      const connect = async () => {
        const next = new pg.Client({ connectionString: url });
        next.on("notification", (message) => message.channel === channel && onNotify(message.payload));
        // A connection lost once is replaced once: pg can report a loss twice (the server's goodbye, then the socket's
        // end), and two reconnection loops would be two listeners, each notifying.
        next.on("error", (error) => {
          if (client !== next) return;
          client = undefined;
          lostAt = Date.now();
          log.error({ err: error, channel }, "db: a listener lost its connection");
          void next.end().catch(() => {});
          reconnectLater();
        });
        try {
          await next.connect();
          await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        } catch (error) {
          void next.end().catch(() => {});
          throw error;
        }
        if (stopped) return void (await next.end().catch(() => {}));
        client = next;
        if (lostAt !== undefined) log.info({ channel, ms: Date.now() - lostAt, attempts }, `db: a listener is back after ${Date.now() - lostAt} ms`);
        lostAt = undefined;
        attempts = 0;
        // What was notified while the connection was down: the caller catches up (a sweep of its own).
        onNotify();
      };
      const reconnectLater = () => {
        if (stopped || retry) return;
        retry = setTimeout(() => {
          retry = undefined;
          connect().catch((error: Error) => {
            attempts += 1;
            if (attempts === 1) log.error({ err: error, channel }, "db: a listener could not connect; trying again every second");
            reconnectLater();
          });
        }, LISTEN_RETRY_MS);
      };
      await connect();
      stopListening.push(async () => {
        stopped = true;
        clearTimeout(retry);
        await client?.end().catch(() => {});
      });
    };
  } else {
    engine = "pglite";
    const dataDir = options.dataDir ?? "memory://";
    const client = await PGlite.create({
      dataDir: dataDir.startsWith("memory://") ? dataDir : path.resolve(dataDir),
      parsers: { [INT8_OID]: parseInt8 },
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    const dialect = new PGliteDialect(client);
    db = new Kysely<DB>({ dialect, log: slowQueryLogger(options.slowQuery) });
    queueDepth = () => dialect.queueDepth();
    inUse = () => dialect.inUse();
    listen = async (channel, onNotify) => {
      const unlisten = await client.listen(channel, (payload) => onNotify(payload));
      stopListening.push(async () => {
        await unlisten().catch(() => {});
      });
    };
    // db.connection() holds the dialect's lock for the whole callback: every other query and transaction waits.
    const directory = dataDir.startsWith("memory://") ? undefined : path.resolve(dataDir);
    if (directory) {
      copyDataDir = ({ read, copy }) =>
        db.connection().execute(async (connection) => {
          const result = await read(connection);
          await sql`checkpoint`.execute(connection);
          await client.runExclusive(() => copy(directory, result));
          return result;
        });
    }
  }

  let closed = false;
  return {
    db,
    engine,
    queueDepth,
    inUse: () => inUse(),
    async ping(timeoutMs = 2000) {
      if (closed) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const query = sql`select 1`
        .execute(db)
        .then(() => true as const)
        .catch(() => false as const);
      try {
        return await Promise.race([query, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    listen,
    ...(copyDataDir ? { copyDataDir } : {}),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(stopListening.map((stop) => stop()));
      await db.destroy();
    },
  };
}
