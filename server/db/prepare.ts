import path from "node:path";
import type { AppConfig } from "../../app/infra/config";
import { openDatabase, type DatabaseHandle } from "../../app/infra/db";
import { log } from "../../app/infra/logger.server";
import { createImageStorage } from "../../app/infra/storage";
import { migrateToLatest } from "./migrate";
import { seedDemoData } from "./seed";

/** The slow-query log the configuration asks for (DATABASE_SLOW_QUERY_MS), for the primary and the replica alike. */
export const slowQueryOf = (config: AppConfig) =>
  config.DATABASE_SLOW_QUERY_MS ? { ms: config.DATABASE_SLOW_QUERY_MS, parameters: config.DATABASE_SLOW_QUERY_PARAMETERS } : undefined;

/** Opens the configured database, applies pending migrations and seeds it if it was empty. */
export async function prepareDatabase(config: AppConfig): Promise<DatabaseHandle> {
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.DATA_DIR, "pglite"),
    poolMax: config.DATABASE_POOL_MAX,
    slowQuery: slowQueryOf(config),
  });
  try {
    const { wasEmpty, applied } = await migrateToLatest(database.db);
    if (applied.length > 0) log.info({ event: "migrations", applied }, `db: applied ${applied.length} migration(s)`);
    if (wasEmpty && config.SEED === "demo") {
      // Known passwords must not reach production by accident; hosted Supabase keeps its own users.
      const demoAccounts = !config.SUPABASE_URL && (config.NODE_ENV !== "production" || config.ALLOW_DEMO_ACCOUNTS);
      await seedDemoData(database.db, { demoAccounts, storage: createImageStorage(config) });
      log.info(
        `db: empty database: demo data added${demoAccounts ? " with demo accounts" : ""} (SEED=none skips this)` +
          (!demoAccounts && !config.SUPABASE_URL ? "; demo accounts skipped in production (ALLOW_DEMO_ACCOUNTS=true adds them)" : ""),
      );
    }
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
