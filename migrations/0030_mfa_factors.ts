import { sql, type Kysely } from "kysely";

/**
 * TOTP factors of the embedded auth server (ADR 063), as GoTrue's models/factor.go, challenge.go and
 * sessions.go keep them:
 * - `auth_mfa_factors`: a user's authenticator app, `unverified` until a code from it was verified once. Its TOTP
 *   secret (base32) is kept as GoTrue keeps it without encryption; it never leaves the server after enrolment and is
 *   never logged. `last_verified_step` is the 30-second step of the last code accepted: a step is accepted once.
 *   A friendly name is unique per user (GoTrue's index, which leaves the empty name out).
 * - `auth_mfa_challenges`: one per challenge, with the client address that asked (verify must come from it),
 *   verified once.
 * - `auth_sessions.aal` / `factor_id` / `mfa_verified_at`: the session's assurance level, the factor that raised
 *   it to aal2 and when (its `totp` entry in `amr`).
 * - `auth_refresh_tokens.superseded_at`: a token that can no longer refresh because its session changed level (the
 *   aal1 token after a verify), refused without ending the session.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("auth_mfa_factors")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (col) => col.notNull().references("auth_users.id").onDelete("cascade"))
    .addColumn("friendly_name", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("factor_type", "text", (col) => col.notNull().check(sql`factor_type in ('totp')`))
    .addColumn("status", "text", (col) => col.notNull().check(sql`status in ('unverified', 'verified')`))
    .addColumn("secret", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("last_challenged_at", "timestamptz")
    .addColumn("last_verified_step", "integer")
    .execute();
  await sql`create unique index auth_mfa_factors_user_name_idx on auth_mfa_factors (user_id, friendly_name) where trim(friendly_name) <> ''`.execute(db);
  await db.schema.createIndex("auth_mfa_factors_user_idx").on("auth_mfa_factors").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("auth_mfa_challenges")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("factor_id", "uuid", (col) => col.notNull().references("auth_mfa_factors.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("verified_at", "timestamptz")
    .addColumn("ip_address", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("auth_mfa_challenges_factor_idx").on("auth_mfa_challenges").column("factor_id").execute();

  await db.schema
    .alterTable("auth_sessions")
    .addColumn("aal", "text", (col) => col.notNull().defaultTo("aal1").check(sql`aal in ('aal1', 'aal2')`))
    .addColumn("factor_id", "uuid", (col) => col.references("auth_mfa_factors.id").onDelete("set null"))
    .addColumn("mfa_verified_at", "timestamptz")
    .execute();
  await db.schema.createIndex("auth_sessions_factor_idx").on("auth_sessions").column("factor_id").execute();
  await db.schema.alterTable("auth_refresh_tokens").addColumn("superseded_at", "timestamptz").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("auth_refresh_tokens").dropColumn("superseded_at").execute();
  await db.schema.dropIndex("auth_sessions_factor_idx").execute();
  await db.schema.alterTable("auth_sessions").dropColumn("aal").dropColumn("factor_id").dropColumn("mfa_verified_at").execute();
  await db.schema.dropTable("auth_mfa_challenges").execute();
  await db.schema.dropTable("auth_mfa_factors").execute();
}
