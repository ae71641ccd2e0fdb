import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>) {
  // Local auth (the Supabase-compatible endpoints under /auth/v1). With hosted Supabase these stay empty.
  await db.schema
    .createTable("auth_users")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("email", "text", (col) => col.notNull().unique().check(sql`email = lower(email)`))
    .addColumn("password_hash", "text", (col) => col.notNull())
    .addColumn("user_metadata", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("last_sign_in_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("auth_sessions")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (col) => col.notNull().references("auth_users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("refreshed_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .addColumn("revoked_reason", "text")
    .execute();
  await db.schema.createIndex("auth_sessions_user_idx").on("auth_sessions").column("user_id").execute();

  await db.schema
    .createTable("auth_refresh_tokens")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn("session_id", "uuid", (col) => col.notNull().references("auth_sessions.id").onDelete("cascade"))
    .addColumn("parent_id", "bigint", (col) => col.references("auth_refresh_tokens.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("auth_refresh_tokens_session_idx").on("auth_refresh_tokens").column("session_id").execute();

  // Rate limiting shared by every replica: one row per counted event, pruned as it ages out.
  await db.schema
    .createTable("rate_limit_events")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("bucket", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("rate_limit_events_bucket_idx").on("rate_limit_events").columns(["bucket", "created_at"]).execute();

  // Profiles: id is the auth `sub`, local or hosted, so no foreign key to auth_users.
  await db.schema
    .createTable("users")
    .addColumn("id", "uuid", (col) => col.primaryKey())
    .addColumn("display_name", "text", (col) => col.notNull().check(sql`char_length(display_name) between 1 and 30`))
    .addColumn("avatar_url", "text")
    .addColumn("bio", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(bio) <= 500`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("user_games")
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("game_id", "integer", (col) => col.notNull().references("games.id").onDelete("cascade"))
    .addColumn("rank", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(rank) <= 30`))
    .addPrimaryKeyConstraint("user_games_pkey", ["user_id", "game_id"])
    .execute();

  await db.schema
    .createTable("subscriptions")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("subscriber_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("subscribee_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("subscriptions_pair_key", ["subscriber_id", "subscribee_id"])
    .addCheckConstraint("subscriptions_not_self", sql`subscriber_id <> subscribee_id`)
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["subscriptions", "user_games", "users", "rate_limit_events", "auth_refresh_tokens", "auth_sessions", "auth_users"]) {
    await db.schema.dropTable(table).execute();
  }
}
