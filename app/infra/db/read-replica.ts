import {
  Kysely,
  PostgresAdapter,
  PostgresDriver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from "kysely";
import pg from "pg";
import { log } from "~/infra/logger.server";
import { READ_REPLICA } from "~/lib/constants";
import { SESSION_OPTIONS, slowQueryLogger, type SlowQueryLog } from "./index";
import { isConnectionError } from "./errors";
import type { Database, DB } from "./tables";

/**
 * A PostgreSQL streaming replica for the heavy public reads (ADR 040): explore, the game pages, profiles and the
 * public feed. `readerFor` answers, per request, the database those reads go to: the replica while it answers, is
 * no further behind than `READ_REPLICA.maxLagMs`, and already holds the caller's own last write; the primary otherwise. A gamer
 * never misses what they just wrote (read-your-writes), and a replica that is down or far behind costs nobody an error.
 *
 * How "holds the caller's last write" is known without a query per request: every `READ_REPLICA.pollMs` the monitor reads the
 * primary's WAL position (`pg_current_wal_insert_lsn()`: every commit so far, flushed or not) at time T, and later the replica's replay position; once the replica
 * has replayed past it, everything committed before T is on the replica (`freshAsOf` = T). A write's response carries
 * its time W, taken after its commit (the `gm_wrote` cookie, server/app.ts); the caller's reads use the replica only
 * while `freshAsOf ≥ W`.
 */
export interface ReadReplica {
  /** The replica's Kysely: a query that cannot reach it (down, restarting, a recovery conflict) runs on the primary. */
  db: Database;
  /** Where a request's public reads go, given the time of the caller's last write (epoch ms), if any. */
  readerFor(lastWriteAt?: number): Database;
  close(): Promise<void>;
}

export interface ReadReplicaOptions {
  url: string;
  primary: Database;
  poolMax?: number;
  slowQuery?: SlowQueryLog;
}

/** A "X/Y" WAL position as a number that compares. */
const lsnValue = (lsn: string) => {
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

/** Worth running again on the primary: the replica is not there, or it cancelled the read for a conflict with recovery. */
const isRetryable = (error: unknown) => isConnectionError(error) || (error as { code?: string })?.code === "40001";

export async function openReadReplica({ url, primary, poolMax = 10, slowQuery }: ReadReplicaOptions): Promise<ReadReplica> {
  const pool = new pg.Pool({ connectionString: url, options: SESSION_OPTIONS, max: poolMax, connectionTimeoutMillis: READ_REPLICA.connectTimeoutMs });
  let up = false;
  let freshAsOf: number | undefined;
  const markDown = (error: unknown) => {
    if (up) log.warn({ event: "read-replica", error: (error as Error)?.message }, "read replica: unreachable, reads go to the primary");
    up = false;
  };
  // An idle connection cut off (the replica stopped or restarted) must not crash the process: reads go to the
  // primary until the monitor reaches the replica again.
  pool.on("error", markDown);
  // And one in use (pg-pool listens only to idle ones): its query fails and is retried on the primary; the event
  // needs a listener (app/infra/db/index.ts says why).
  pool.on("connect", (client) => client.on("error", markDown));
  const db = new Kysely<DB>({ dialect: replicaDialect(pool, primary, { up: () => up, failed: markDown }), log: slowQueryLogger(slowQuery) });

  // The primary's WAL positions read at each poll, oldest first, until the replica has replayed past them.
  const pending: Array<{ at: number; lsn: bigint }> = [];
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const at = Date.now();
      const current = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(primary);
      pending.push({ at, lsn: lsnValue(current.rows[0]!.lsn) });
      if (pending.length > READ_REPLICA.pendingMax) pending.shift();
      let replayed: bigint | undefined;
      try {
        const result = await pool.query<{ lsn: string | null }>("select pg_last_wal_replay_lsn()::text as lsn");
        // Not in recovery (a primary named as the replica): it is as fresh as itself.
        replayed = result.rows[0]?.lsn ? lsnValue(result.rows[0].lsn) : undefined;
        if (!up) log.info({ event: "read-replica" }, "read replica: answering, public reads go to it");
        up = true;
      } catch (error) {
        markDown(error);
        return;
      }
      while (pending.length && (replayed === undefined || pending[0]!.lsn <= replayed)) freshAsOf = pending.shift()!.at;
    } catch (error) {
      log.warn({ err: error, event: "read-replica" }, "read replica: could not read the primary's WAL position");
    } finally {
      polling = false;
    }
  };
  await poll();
  const timer = setInterval(() => void poll(), READ_REPLICA.pollMs);
  timer.unref();

  return {
    db,
    readerFor(lastWriteAt) {
      // Behind by more than maxLagMs, the replica serves nobody until it catches up.
      if (!up || freshAsOf === undefined || Date.now() - freshAsOf > READ_REPLICA.maxLagMs) return primary;
      if (lastWriteAt !== undefined && freshAsOf < lastWriteAt) return primary;
      return db;
    },
    async close() {
      clearInterval(timer);
      await db.destroy();
    },
  };
}

/** PostgreSQL's dialect on the replica's pool, with the primary behind every query (reads only: no transactions). */
function replicaDialect(pool: pg.Pool, primary: Database, router: { up(): boolean; failed(error: unknown): void }): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createDriver: () => new ReplicaDriver(new PostgresDriver({ pool }), primary, router),
  };
}

class ReplicaDriver implements Driver {
  constructor(
    private readonly replica: PostgresDriver,
    private readonly primary: Database,
    private readonly router: { up(): boolean; failed(error: unknown): void }
  ) {}

  init() {
    return this.replica.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.router.up()) {
      try {
        return new ReplicaConnection(await this.replica.acquireConnection(), this.primary, this.router);
      } catch (error) {
        this.router.failed(error);
      }
    }
    return new PrimaryConnection(this.primary);
  }

  async releaseConnection(connection: DatabaseConnection) {
    if (connection instanceof ReplicaConnection)
      await this.replica.releaseConnection(connection.inner as Parameters<PostgresDriver["releaseConnection"]>[0]);
  }

  beginTransaction(): Promise<void> {
    throw new Error("the read replica runs no transactions: writes and transactions go to the primary (context.db)");
  }
  commitTransaction(): Promise<void> {
    throw new Error("the read replica runs no transactions");
  }
  rollbackTransaction(): Promise<void> {
    throw new Error("the read replica runs no transactions");
  }

  destroy() {
    return this.replica.destroy();
  }
}

class ReplicaConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection, private readonly primary: Database, private readonly router: { failed(error: unknown): void }) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (isConnectionError(error)) this.router.failed(error);
      return this.primary.executeQuery<R>(query);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number) {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** While the replica is down: each query on the primary's own pool. */
class PrimaryConnection implements DatabaseConnection {
  constructor(private readonly primary: Database) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.primary.executeQuery<R>(query);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("the read replica is down: stream from the primary (context.db)");
  }
}
