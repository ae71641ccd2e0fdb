import { sql, type Kysely } from "kysely";

/**
 * Web Push to installed apps (ADR 052):
 * - `push_subscriptions`: one row per device a user turned push on for: the push service's endpoint (unique: a device
 *   signed in as someone else moves to them), the device's keys (P-256 public key and auth secret, which encrypt what is
 *   sent), a label (「Chrome（Android）」), when it was added and when a push last reached its push service.
 * - `push_opt_outs`: the kinds of push a user turned off (default on), as `mail_opt_outs` for mail.
 * - `push_outbox`: a push per device, written in the transaction of what it is about (a chat message, a booking
 *   event…) and sent after the commit, like the mail outbox (ADR 027): claimed for a while, retried with backoff,
 *   given up after the last try. A row is deleted once the push service took it; `topic` (a chat room) lets a newer
 *   push replace an older one still waiting for the same device. A trigger NOTIFYs `push_outbox` on insert (delivered
 *   on commit, once per transaction), and every process LISTENs and sends at once.
 * - `user_presence.focused_room_id`: the chat room the user's focused tab shows, said by that tab's socket
 *   (`focused_socket`) and repeated while it stays so (`focused_at`): no push of that room meanwhile.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (col) => col.notNull().unique())
    .addColumn("p256dh", "text", (col) => col.notNull())
    .addColumn("auth", "text", (col) => col.notNull())
    .addColumn("label", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("last_success_at", "timestamptz")
    .execute();
  await db.schema.createIndex("push_subscriptions_user_idx").on("push_subscriptions").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("push_opt_outs")
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("push_opt_outs_pkey", ["user_id", "kind"])
    .execute();

  await db.schema
    .createTable("push_outbox")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("subscription_id", "bigint", (col) => col.notNull().references("push_subscriptions.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull())
    // Pushes of one topic replace each other at the push service (and here, while waiting): a chat room's.
    .addColumn("topic", "text")
    .addColumn("urgency", "text", (col) => col.notNull().defaultTo("normal"))
    .addColumn("ttl", "integer", (col) => col.notNull())
    // What the push says: its title, body, URL and tag, or (a chat message) what they are made of.
    .addColumn("data", "jsonb", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("locked_until", "timestamptz")
    .addColumn("failed_at", "timestamptz")
    .addColumn("last_error", "text")
    .execute();
  await sql`create index push_outbox_due_idx on push_outbox (next_attempt_at) where failed_at is null`.execute(db);
  // The subscription's rows (its deletion, and a newer push of the same topic replacing an older one).
  await db.schema.createIndex("push_outbox_subscription_idx").on("push_outbox").columns(["subscription_id", "topic"]).execute();
  await sql`
    create function gm_push_outbox_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('push_outbox', '');
      return null;
    end
    $$`.execute(db);
  // For each row, not each statement: a chat message's statement that writes no push (nobody subscribed) is silent.
  // PostgreSQL folds the same notification within a transaction into one.
  await sql`create trigger push_outbox_notify after insert on push_outbox for each row execute function gm_push_outbox_notify()`.execute(db);

  await db.schema
    .alterTable("user_presence")
    .addColumn("focused_room_id", "uuid")
    .addColumn("focused_socket", "text")
    .addColumn("focused_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("user_presence").dropColumn("focused_room_id").dropColumn("focused_socket").dropColumn("focused_at").execute();
  await sql`drop trigger push_outbox_notify on push_outbox`.execute(db);
  await sql`drop function gm_push_outbox_notify()`.execute(db);
  await db.schema.dropTable("push_outbox").execute();
  await db.schema.dropTable("push_opt_outs").execute();
  await db.schema.dropTable("push_subscriptions").execute();
}
