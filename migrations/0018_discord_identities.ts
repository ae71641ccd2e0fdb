import { sql, type Kysely } from "kysely";

/**
 * Discord sign-in on the embedded auth (ADR 039): Supabase Auth's OAuth flow with its identities.
 * - `auth_users.password_hash` may be null: an account made by signing in with Discord has no password until it sets
 *   one through the recovery mail. `email_proven_at`: when someone followed a link mailed to the address (or Discord
 *   said it verified it at sign-up); only such an address may have a Discord account linked to it by its e-mail.
 *   `email_confirmed_at` cannot say so: with AUTH_CONFIRM_EMAIL off every sign-up is confirmed at once, as GoTrue's.
 * - `auth_identities`: a way to sign in from another provider (Discord), as GoTrue's table: the provider's id of the
 *   person, what the provider said about them, one per provider and account.
 * - `auth_flow_states`: one OAuth sign-in or link in progress: the app's PKCE challenge and where to send the browser
 *   back, the state and PKCE verifier toward Discord, and once Discord answered, the one-time auth code (its hash).
 * - `discord_guilds`: the servers a Discord identity is in, as of its last sign-in, gone with the identity.
 *   `users.show_discord_guilds`: the gamer agreed to show shared servers on profiles (off by default).
 */
export async function up(db: Kysely<any>) {
  await sql`alter table auth_users alter column password_hash drop not null`.execute(db);
  await db.schema.alterTable("auth_users").addColumn("email_proven_at", "timestamptz").execute();

  await db.schema
    .createTable("auth_identities")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (col) => col.notNull().references("auth_users.id").onDelete("cascade"))
    .addColumn("provider", "text", (col) => col.notNull().check(sql`provider in ('discord')`))
    .addColumn("provider_id", "text", (col) => col.notNull())
    .addColumn("identity_data", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("email", "text")
    .addColumn("last_sign_in_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("auth_identities_provider_id_key", ["provider", "provider_id"])
    .addUniqueConstraint("auth_identities_user_provider_key", ["user_id", "provider"])
    .execute();

  await db.schema
    .createTable("auth_flow_states")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("state_hash", "text", (col) => col.notNull().unique())
    .addColumn("provider", "text", (col) => col.notNull())
    .addColumn("code_challenge", "text", (col) => col.notNull())
    .addColumn("code_challenge_method", "text", (col) => col.notNull().check(sql`code_challenge_method in ('s256', 'plain')`))
    .addColumn("redirect_to", "text", (col) => col.notNull())
    .addColumn("provider_code_verifier", "text", (col) => col.notNull())
    .addColumn("link_user_id", "uuid", (col) => col.references("auth_users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull())
    .addColumn("expires_at", "timestamptz", (col) => col.notNull())
    .addColumn("state_used_at", "timestamptz")
    .addColumn("auth_code_hash", "text", (col) => col.unique())
    .addColumn("user_id", "uuid", (col) => col.references("auth_users.id").onDelete("cascade"))
    .addColumn("auth_code_used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("auth_flow_states_expires_idx").on("auth_flow_states").column("expires_at").execute();

  await db.schema
    .createTable("discord_guilds")
    .addColumn("user_id", "uuid", (col) => col.notNull())
    .addColumn("guild_id", "text", (col) => col.notNull())
    .addColumn("identity_id", "uuid", (col) => col.notNull().references("auth_identities.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("icon", "text")
    .addPrimaryKeyConstraint("discord_guilds_pkey", ["user_id", "guild_id"])
    .execute();
  await db.schema.createIndex("discord_guilds_identity_idx").on("discord_guilds").column("identity_id").execute();

  await db.schema
    .alterTable("users")
    .addColumn("show_discord_guilds", "boolean", (col) => col.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("users").dropColumn("show_discord_guilds").execute();
  await db.schema.dropTable("discord_guilds").execute();
  await db.schema.dropTable("auth_flow_states").execute();
  await db.schema.dropTable("auth_identities").execute();
  await db.schema.alterTable("auth_users").dropColumn("email_proven_at").execute();
  // Accounts made by Discord keep a hash no password matches, as an account that left does.
  await sql`update auth_users set password_hash = '!' where password_hash is null`.execute(db);
  await sql`alter table auth_users alter column password_hash set not null`.execute(db);
}
