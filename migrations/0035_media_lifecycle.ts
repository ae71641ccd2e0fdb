import { sql, type Kysely } from "kysely";

/**
 * Private media, the rest (ADR 070).
 *
 * - `media_removals`: objects of the image store (a public URL or a `private:` reference) to remove. A picture is
 *   taken out of the database first, in the transaction that hides its message, closes its owner's account or
 *   removes its post, which writes its references here; the objects go after the commit, and the sweeper tries again
 *   whatever failed (`attempts`, `last_error`). A reference another upload row still names (files are named by their
 *   content) is dropped from the queue without removing the object.
 * - `uploads.placeholder`: the picture's dominant colour (`#rrggbb`, sharp's stats at upload), painted in the
 *   thumbnail's box until the thumbnail arrives; null for the uploads made before.
 * - `posts_upload_id_idx`: /media asks "which subscriber-only post shows this upload?" in one lookup.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("media_removals")
    .addColumn("id", "bigserial", (col) => col.primaryKey())
    .addColumn("url", "text", (col) => col.notNull().check(sql`char_length(url) between 1 and 2000`))
    .addColumn("reason", "text", (col) => col.notNull().check(sql`reason in ('hidden', 'account_closed', 'unsent')`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .execute();
  await db.schema
    .alterTable("uploads")
    .addColumn("placeholder", "text", (col) => col.check(sql`placeholder ~ '^#[0-9a-f]{6}$'`))
    .execute();
  await sql`create index posts_upload_id_idx on posts (upload_id) where upload_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index posts_upload_id_idx`.execute(db);
  await db.schema.alterTable("uploads").dropColumn("placeholder").execute();
  await db.schema.dropTable("media_removals").execute();
}
