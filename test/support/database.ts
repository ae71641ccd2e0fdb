import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/infra/db";
import type { ImageStorage } from "../../app/infra/storage";
import { migrateToLatest } from "../../server/db/migrate";
import { seedDemoData } from "../../server/db/seed";

/** The engine the suite runs on: PostgreSQL when TEST_DATABASE_URL is set, else in-memory PGlite. */
export const testEngine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

export interface TestDatabase extends DatabaseHandle {
  /** The database's URL on PostgreSQL (for other processes to share it). */
  url?: string;
  /** Closes the connection and, on PostgreSQL, drops the database. */
  dispose(): Promise<void>;
}

/**
 * A fresh database of its own for one test file: a new PostgreSQL database on the TEST_DATABASE_URL server, or a new
 * in-memory PGlite; empty, or with every migration applied (`migrate`, the default). A migrated one starts as a copy
 * of the run's migrated template (./database-templates.ts) where there is one: on TEST_DATABASE_URL's server, or the
 * run's PGlite dump.
 */
export async function createTestDatabase({
  engine = testEngine,
  migrate = true,
  seed = false,
  demoAccounts = false,
  storage,
  adminUrl = process.env.TEST_DATABASE_URL,
}: {
  engine?: "postgres" | "pglite";
  migrate?: boolean;
  seed?: boolean;
  demoAccounts?: boolean;
  storage?: ImageStorage;
  /** The PostgreSQL server to make the database on: TEST_DATABASE_URL's unless a test runs its own. */
  adminUrl?: string;
} = {}): Promise<TestDatabase> {
  let handle: DatabaseHandle;
  let drop = async () => {};
  let databaseUrl: string | undefined;
  let migrated = false;
  if (engine === "postgres") {
    if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
    const name = `gm_test_${randomBytes(6).toString("hex")}`;
    const template = migrate && adminUrl === process.env.TEST_DATABASE_URL ? inject("postgresTemplate") : undefined;
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`));
    migrated = template !== undefined;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    handle = await openDatabase({ url: databaseUrl, poolMax: 5 });
    drop = () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  } else {
    const template = migrate ? inject("pgliteTemplate") : undefined;
    handle = await openDatabase({ dataDir: "memory://", ...(template ? { loadDataDir: await fs.openAsBlob(template) } : {}) });
    migrated = template !== undefined;
  }
  if (migrate && !migrated) await migrateToLatest(handle.db);
  if (seed) await seedDemoData(handle.db, { demoAccounts, storage });
  return {
    ...handle,
    url: databaseUrl,
    async dispose() {
      await handle.close();
      await drop();
    },
  };
}

async function withAdmin(url: string, run: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}
