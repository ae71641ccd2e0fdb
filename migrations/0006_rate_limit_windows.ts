import { sql, type Kysely } from "kysely";

/**
 * A sliding-window rate limit in one row per bucket: the times of the events still in the window. One
 * `insert … on conflict do update … where` both checks and counts, atomically and exactly, because the
 * conflicting row is locked and its latest version is what the condition sees (ADR 011). The chat send
 * path uses it to be one statement; sign-in keeps rate_limit_events.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("rate_limit_windows")
    .addColumn("bucket", "text", (col) => col.primaryKey())
    .addColumn("stamps", sql`timestamptz[]`, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("rate_limit_windows").execute();
}
