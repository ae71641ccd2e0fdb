import { sql, type Kysely } from "kysely";

/**
 * Images people upload, posts (text and/or one image) and footprints (who visited whose profile) (docs/product.md#data).
 * A post's image must be one of its author's own uploads: the row keeps the re-encoded image's size, so pages
 * draw it with width and height, and a post can never point at someone else's (or an outside) URL.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("uploads")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("owner_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull().check(sql`kind in ('post', 'avatar', 'chat')`))
    .addColumn("url", "text", (col) => col.notNull().check(sql`char_length(url) <= 2048`))
    .addColumn("content_type", "text", (col) => col.notNull())
    .addColumn("width", "integer", (col) => col.notNull().check(sql`width > 0`))
    .addColumn("height", "integer", (col) => col.notNull().check(sql`height > 0`))
    .addColumn("bytes", "integer", (col) => col.notNull().check(sql`bytes > 0`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("uploads_owner_url_idx").on("uploads").columns(["owner_id", "url"]).execute();

  await db.schema
    .createTable("posts")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("author_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("content", "text", (col) => col.check(sql`char_length(content) between 1 and 500`))
    .addColumn("upload_id", "uuid", (col) => col.references("uploads.id").onDelete("restrict"))
    .addColumn("is_public", "boolean", (col) => col.notNull().defaultTo(true))
    // Milliseconds, as JavaScript's Date holds them: a page's cursor (created_at, id) then compares exactly.
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .addCheckConstraint("posts_not_empty", sql`content is not null or upload_id is not null`)
    .execute();
  // The feed pages by (created_at, id) newest first; a profile and its gallery do the same per author.
  await db.schema.createIndex("posts_created_idx").on("posts").columns(["created_at desc", "id desc"]).execute();
  await db.schema.createIndex("posts_author_idx").on("posts").columns(["author_id", "created_at desc", "id desc"]).execute();

  await db.schema
    .createTable("footprints")
    .addColumn("visitor_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("visited_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("visited_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("footprints_pkey", ["visitor_id", "visited_id"])
    .addCheckConstraint("footprints_not_self", sql`visitor_id <> visited_id`)
    .execute();
  await db.schema.createIndex("footprints_visited_idx").on("footprints").columns(["visited_id", "visited_at desc"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("footprints").execute();
  await db.schema.dropTable("posts").execute();
  await db.schema.dropTable("uploads").execute();
}
