import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("games")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("slug", "text", (col) => col.notNull().unique().check(sql`slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_kana", "text", (col) => col.notNull())
    .addColumn("cover_url", "text")
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("inquiries")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("name", "text", (col) => col.notNull().check(sql`char_length(name) between 1 and 50`))
    .addColumn("email", "text", (col) => col.notNull().check(sql`char_length(email) between 3 and 254`))
    .addColumn("category", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull().check(sql`char_length(body) between 1 and 2000`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("inquiries_created_at_idx").on("inquiries").column("created_at").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("inquiries").execute();
  await db.schema.dropTable("games").execute();
}
