import { sql, type Kysely } from "kysely";

/**
 * Accounts for real life (ADR 027): mail through an outbox, one-time links for recovery, e-mail change and
 * sign-up confirmation, mail preferences, and leaving (退会).
 * - `mail_outbox`: a mail is a row written in the same transaction as what it is about, so it exists exactly when
 *   that does (a recovery link's token is kept only until the mail is sent); a trigger NOTIFYs `mail_outbox` on insert, which PostgreSQL delivers only on commit, and every
 *   process LISTENs and sends what is due at once. The sweeper retries failures with backoff.
 * - `auth_one_time_tokens`: the secret in a mailed link, stored as its hash, single use, with an expiry.
 * - `users.email`: the address notification mails go to (the auth server's address; with hosted Supabase, the
 *   token's `email` when the profile was set up). `users.deleted_at`: the account has left.
 * - `mail_opt_outs`: the kinds of notification mail a user turned off (default on).
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("auth_users").addColumn("email_confirmed_at", "timestamptz").execute();
  await sql`update auth_users set email_confirmed_at = created_at`.execute(db);
  await db.schema.alterTable("auth_users").addColumn("deleted_at", "timestamptz").execute();
  // How the session began: a session from a recovery link may set a new password without the old one.
  await db.schema
    .alterTable("auth_sessions")
    .addColumn("method", "text", (col) => col.notNull().defaultTo("password"))
    .execute();

  await db.schema
    .createTable("auth_one_time_tokens")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn("user_id", "uuid", (col) => col.notNull().references("auth_users.id").onDelete("cascade"))
    .addColumn("type", "text", (col) => col.notNull().check(sql`type in ('recovery', 'email_change', 'signup')`))
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull())
    .addColumn("expires_at", "timestamptz", (col) => col.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("auth_one_time_tokens_user_idx").on("auth_one_time_tokens").columns(["user_id", "type"]).execute();

  await db.schema.alterTable("users").addColumn("email", "text").execute();
  await db.schema.alterTable("users").addColumn("deleted_at", "timestamptz").execute();
  await sql`update users u set email = au.email from auth_users au where au.id = u.id`.execute(db);

  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("to_address", "text", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("user_id", "uuid")
    // What the mail is about within its kind (the chat room of a digest), for "at most one per … per hour".
    .addColumn("topic", "text")
    // What the mail says, rendered when it is sent (its template is `kind`): a notification's id, a link's token.
    .addColumn("data", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    // A process that claimed the row is sending it until then; past it, another may.
    .addColumn("locked_until", "timestamptz")
    .addColumn("sent_at", "timestamptz")
    .addColumn("failed_at", "timestamptz")
    .addColumn("last_error", "text")
    .execute();
  await sql`create index mail_outbox_due_idx on mail_outbox (next_attempt_at) where sent_at is null and failed_at is null`.execute(db);
  await db.schema.createIndex("mail_outbox_topic_idx").on("mail_outbox").columns(["user_id", "kind", "topic", "created_at"]).execute();
  await sql`
    create function gm_mail_outbox_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('mail_outbox', '');
      return null;
    end
    $$`.execute(db);
  await sql`create trigger mail_outbox_notify after insert on mail_outbox for each statement execute function gm_mail_outbox_notify()`.execute(db);

  await db.schema
    .createTable("mail_opt_outs")
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("mail_opt_outs_pkey", ["user_id", "kind"])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("mail_opt_outs").execute();
  await sql`drop trigger mail_outbox_notify on mail_outbox`.execute(db);
  await sql`drop function gm_mail_outbox_notify()`.execute(db);
  await db.schema.dropTable("mail_outbox").execute();
  await db.schema.alterTable("users").dropColumn("deleted_at").dropColumn("email").execute();
  await db.schema.dropTable("auth_one_time_tokens").execute();
  await db.schema.alterTable("auth_sessions").dropColumn("method").execute();
  await db.schema.alterTable("auth_users").dropColumn("deleted_at").dropColumn("email_confirmed_at").execute();
}
