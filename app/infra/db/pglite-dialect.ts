import type { PGlite } from "@electric-sql/pglite";
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

/**
 * Kysely dialect for embedded PGlite.
 *
 * PGlite is a single connection. Kysely hands a connection to one query, or to one
 * transaction for its whole life, so the driver lends it out behind a lock: a transaction
 * started by one request never swallows another request's queries (see docs/decisions/003).
 */
export class PGliteDialect implements Dialect {
  #driver?: PGliteDriver;
  constructor(private readonly client: PGlite) {}
  /** Queries and transactions waiting for the connection. */
  queueDepth() {
    return this.#driver?.queueDepth() ?? 0;
  }
  /** 1 while a query or transaction holds the connection. */
  inUse() {
    return this.#driver?.inUse() ?? 0;
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    this.#driver = new PGliteDriver(this.client);
    return this.#driver;
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #lock = new Lock();
  readonly #connection: PGliteConnection;
  constructor(private readonly client: PGlite) {
    this.#connection = new PGliteConnection(client);
  }
  async init() {
    await this.client.waitReady;
  }
  queueDepth() {
    return this.#lock.waiting;
  }
  inUse() {
    return this.#lock.held ? 1 : 0;
  }
  async acquireConnection() {
    await this.#lock.acquire();
    return this.#connection;
  }
  async releaseConnection() {
    this.#lock.release();
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const isolation = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : "";
    await connection.executeQuery(CompiledQuery.raw(`BEGIN${isolation}`));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("COMMIT"));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("ROLLBACK"));
  }
  async destroy() {
    await this.#lock.acquire();
    try {
      if (!this.client.closed) await this.client.close();
    } finally {
      this.#lock.release();
    }
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query<R>(query.sql, [...query.parameters]);
    const mutates = ["INSERT", "UPDATE", "DELETE", "MERGE"].includes(result.command ?? "");
    return {
      rows: result.rows,
      ...(mutates ? { numAffectedRows: BigInt(result.affectedRows ?? 0) } : {}),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error("PGlite does not support streaming queries");
  }
}

/** A FIFO async lock. */
class Lock {
  #held = false;
  readonly #waiting: Array<() => void> = [];
  get waiting() {
    return this.#waiting.length;
  }
  get held() {
    return this.#held;
  }
  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
  release() {
    const next = this.#waiting.shift();
    // PGlite runs in this thread: handing over through setImmediate lets the event loop take in new requests
    // (and answer /healthz, or refuse work when overloaded) between two holders, instead of running the whole
    // queue in one go of microtasks.
    if (next) setImmediate(next);
    else this.#held = false;
  }
}
