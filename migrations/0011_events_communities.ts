import { sql, type Kysely } from "kysely";

/**
 * Events and communities (docs/product.md#data).
 * - An event of a game with a capacity; `participants_count` moves with each join and leave in the same transaction,
 *   and the check `participants_count <= capacity` makes the database refuse a seat too many, however many join at
 *   once. Each participant is reminded once, an hour before the start (`reminded_at`).
 * - A community of a game that people join; a post may be tagged with one community.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("events")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("game_id", "integer", (col) => col.notNull().references("games.id").onDelete("restrict"))
    .addColumn("title", "text", (col) => col.notNull().check(sql`char_length(title) between 1 and 80`))
    .addColumn("description", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(description) <= 2000`))
    .addColumn("starts_at", "timestamptz", (col) => col.notNull())
    .addColumn("ends_at", "timestamptz", (col) => col.notNull())
    .addColumn("capacity", "integer", (col) => col.notNull().check(sql`capacity between 1 and 10000`))
    .addColumn("participants_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("events_ends_after_start", sql`ends_at > starts_at`)
    .addCheckConstraint("events_seats", sql`participants_count between 0 and capacity`)
    .execute();
  await db.schema.createIndex("events_starts_idx").on("events").columns(["starts_at", "id"]).execute();
  await db.schema.createIndex("events_game_idx").on("events").columns(["game_id", "starts_at"]).execute();

  await db.schema
    .createTable("event_participants")
    .addColumn("event_id", "uuid", (col) => col.notNull().references("events.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("joined_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("reminded_at", "timestamptz")
    .addPrimaryKeyConstraint("event_participants_pkey", ["event_id", "user_id"])
    .execute();
  await db.schema.createIndex("event_participants_user_idx").on("event_participants").columns(["user_id", "joined_at"]).execute();

  await db.schema
    .createTable("communities")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("slug", "text", (col) => col.notNull().unique().check(sql`slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 64`))
    .addColumn("name", "text", (col) => col.notNull().check(sql`char_length(name) between 1 and 50`))
    .addColumn("game_id", "integer", (col) => col.notNull().references("games.id").onDelete("restrict"))
    .addColumn("description", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(description) <= 1000`))
    .addColumn("members_count", "integer", (col) => col.notNull().defaultTo(0).check(sql`members_count >= 0`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("communities_game_idx").on("communities").columns(["game_id"]).execute();

  await db.schema
    .createTable("community_members")
    .addColumn("community_id", "uuid", (col) => col.notNull().references("communities.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("joined_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("community_members_pkey", ["community_id", "user_id"])
    .execute();
  await db.schema.createIndex("community_members_user_idx").on("community_members").columns(["user_id"]).execute();

  await db.schema.alterTable("posts").addColumn("community_id", "uuid", (col) => col.references("communities.id").onDelete("set null")).execute();
  await db.schema.createIndex("posts_community_idx").on("posts").columns(["community_id", "created_at desc", "id desc"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("posts_community_idx").execute();
  await db.schema.alterTable("posts").dropColumn("community_id").execute();
  await db.schema.dropTable("community_members").execute();
  await db.schema.dropTable("communities").execute();
  await db.schema.dropTable("event_participants").execute();
  await db.schema.dropTable("events").execute();
}
