import { sql, type Kysely } from "kysely";

/**
 * Two-step verification in the app (ADR 064):
 * - `mfa_recovery_codes`: ten single-use codes per account, made when an authenticator app is confirmed and shown
 *   once. Only their SHA-256 is kept (a code is 50 random bits, so a hash needs no salt or stretching to be
 *   unguessable from the table); `used_at` spends one. A new set replaces the old one.
 * - `users.second_step_required`: whether the account has a confirmed authenticator app, as the app last learnt it
 *   (its own pages, and each sign-in's answer from the auth server). Hosted Supabase keeps factors in its own
 *   database, so this is what the app reads there to know an aal1 session is not yet signed in; the embedded auth
 *   reads its factors table itself.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("mfa_recovery_codes")
    .addColumn("id", "bigserial", (col) => col.primaryKey())
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("used_at", "timestamptz")
    .addUniqueConstraint("mfa_recovery_codes_user_hash_key", ["user_id", "code_hash"])
    .execute();
  await db.schema.alterTable("users").addColumn("second_step_required", "boolean", (col) => col.notNull().defaultTo(false)).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("users").dropColumn("second_step_required").execute();
  await db.schema.dropTable("mfa_recovery_codes").execute();
}
