import { Migrator, sql } from "kysely";
import type { Database } from "../../app/infra/db/tables";
import { migrations } from "../../migrations";

const MIGRATION_TABLE = "kysely_migration";

/** Applies every pending migration. Answers whether the database was empty before. */
export async function migrateToLatest(db: Database): Promise<{ wasEmpty: boolean; applied: string[] }> {
  const wasEmpty = !(await hasAppliedMigrations(db));
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
  return { wasEmpty, applied: results.map((result) => result.migrationName) };
}

async function hasAppliedMigrations(db: Database): Promise<boolean> {
  const { rows } = await sql<{ exists: boolean }>`
    select exists (
      select 1 from information_schema.tables
      where table_schema = current_schema() and table_name = ${MIGRATION_TABLE}
    ) as exists`.execute(db);
  if (!rows[0]?.exists) return false;
  const { rows: applied } = await sql<{ n: number }>`select count(*) as n from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  return (applied[0]?.n ?? 0) > 0;
}

/** Whether every migration this build knows is applied (readiness: a replica never serves an older schema). */
export async function migrationsApplied(db: Database): Promise<boolean> {
  const names = Object.keys(migrations);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(MIGRATION_TABLE)} where name in (${sql.join(names)})`.execute(db);
  return rows[0]?.n === names.length;
}
