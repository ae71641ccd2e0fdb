import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { PGliteDialect } from "./pglite-dialect";
import type { Database, DB } from "./schema";

export type { Database } from "./schema";

export type DatabaseEngine = "postgres" | "pglite";

export interface DatabaseHandle {
  db: Database;
  engine: DatabaseEngine;
  /** Queries (or transactions) waiting for a connection right now: the depth of the database's queue of work. */
  queueDepth(): number;
  /** Answers whether the database responds within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL. Without it the embedded PGlite is used. */
  url?: string;
  /** Where PGlite keeps its files; `memory://` keeps them in memory. */
  dataDir?: string;
  poolMax?: number;
}

const INT8_OID = 20;
// bigint columns and count(*) come back as JS numbers on both engines; every amount we store is far below 2^53.
const parseInt8 = (value: string) => Number(value);

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  let db: Database;
  let engine: DatabaseEngine;
  let queueDepth: () => number;
  if (options.url) {
    engine = "postgres";
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolMax ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client that loses its connection must not crash the process.
    pool.on("error", (error) => console.error("[db] idle client error:", error.message));
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    queueDepth = () => pool.waitingCount;
  } else {
    engine = "pglite";
    const dataDir = options.dataDir ?? "memory://";
    const client = await PGlite.create({
      dataDir: dataDir.startsWith("memory://") ? dataDir : path.resolve(dataDir),
      parsers: { [INT8_OID]: parseInt8 },
    });
    const dialect = new PGliteDialect(client);
    db = new Kysely<DB>({ dialect });
    queueDepth = () => dialect.queueDepth();
  }

  let closed = false;
  return {
    db,
    engine,
    queueDepth,
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
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
