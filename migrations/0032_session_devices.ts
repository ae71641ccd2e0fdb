import { sql, type Kysely } from "kysely";

/**
 * The devices a user is signed in on (「ログイン中の端末」 in /settings/security, ADR 064), as GoTrue's sessions table
 * keeps them: `auth_sessions.user_agent` and `ip`, what the browser said it was and where it came from when the
 * session began, null for sessions begun before this migration (or a client that sent none). Both are written once,
 * never trusted for anything but a label the user reads.
 *
 * The page lists a user's live sessions, newest use first: a partial index of those alone, in that order, so a user
 * with years of ended sessions (every sign-in is one, never deleted) is read as quickly as a new one.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("auth_sessions").addColumn("user_agent", "text").addColumn("ip", "text").execute();
  await sql`create index auth_sessions_user_live_idx on auth_sessions (user_id, (coalesce(refreshed_at, created_at)) desc) where revoked_at is null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("auth_sessions_user_live_idx").execute();
  await db.schema.alterTable("auth_sessions").dropColumn("user_agent").dropColumn("ip").execute();
}
