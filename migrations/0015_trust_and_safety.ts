import { sql, type Kysely } from "kysely";

/**
 * Trust and safety (docs/product.md#trust-and-safety):
 * - `reports`: one per reporter and target (the unique key makes a second report of the same thing the first one),
 *   with the target's owner kept for the operators' list and for "nobody reports themselves".
 * - `moderation_actions`: every operator decision with its reason, append-only (a trigger refuses update and delete),
 *   written in the same transaction as its effects.
 * - `hidden_at` on posts, chat messages, listings and reviews: hidden by the operators, shown only to the author.
 * - `users.suspended_until` / `users.banned_at`: a suspension ends by itself, a ban does not.
 * - `payout_requests.status` gains `held`: a suspended seller's requested payout waits for the operators.
 * - `off_platform_flags`: a chat message or post sent after the off-platform payment warning, counted for the
 *   operators' list.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("reports")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("reporter_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("target_type", "text", (col) => col.notNull().check(sql`target_type in ('user', 'post', 'chat_message', 'listing', 'review')`))
    .addColumn("target_id", "text", (col) => col.notNull().check(sql`char_length(target_id) between 1 and 64`))
    // Whose the reported thing is (the user reported, the author, the sender, the seller, the reviewer).
    .addColumn("target_user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("reason", "text", (col) =>
      col.notNull().check(sql`reason in ('spam', 'harassment', 'inappropriate', 'off_platform_payment', 'impersonation', 'other')`),
    )
    .addColumn("note", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(note) <= 500`))
    .addColumn("status", "text", (col) => col.notNull().defaultTo("open").check(sql`status in ('open', 'actioned', 'dismissed')`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("decided_at", "timestamptz")
    .addUniqueConstraint("reports_reporter_target_key", ["reporter_id", "target_type", "target_id"])
    .addCheckConstraint("reports_not_self", sql`reporter_id <> target_user_id`)
    .addCheckConstraint("reports_decided", sql`(decided_at is not null) = (status <> 'open')`)
    .execute();
  await db.schema.createIndex("reports_target_idx").on("reports").columns(["target_type", "target_id"]).execute();
  await db.schema.createIndex("reports_reporter_idx").on("reports").columns(["reporter_id", "created_at"]).execute();
  await sql`create index reports_open_idx on reports (created_at) where status = 'open'`.execute(db);

  await db.schema
    .createTable("moderation_actions")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("action", "text", (col) => col.notNull().check(sql`action in ('hide', 'suspend', 'ban', 'dismiss', 'restore')`))
    .addColumn("report_id", "bigint", (col) => col.references("reports.id"))
    .addColumn("target_type", "text")
    .addColumn("target_id", "text")
    .addColumn("user_id", "uuid")
    .addColumn("reason", "text", (col) => col.notNull().check(sql`char_length(btrim(reason)) between 1 and 1000`))
    // A suspension's end.
    .addColumn("until", "timestamptz")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("moderation_actions_user_idx").on("moderation_actions").columns(["user_id", "created_at"]).execute();
  await sql`
    create function gm_append_only() returns trigger language plpgsql as $$
    begin
      raise exception '% is append-only', tg_table_name using errcode = 'restrict_violation';
    end
    $$`.execute(db);
  await sql`create trigger moderation_actions_append_only before update or delete on moderation_actions for each row execute function gm_append_only()`.execute(db);

  for (const table of ["posts", "chat_messages", "listings", "reviews"]) {
    await db.schema.alterTable(table).addColumn("hidden_at", "timestamptz").execute();
  }
  await db.schema.alterTable("users").addColumn("suspended_until", "timestamptz").execute();
  await db.schema.alterTable("users").addColumn("banned_at", "timestamptz").execute();

  await sql`alter table payout_requests drop constraint payout_requests_status_check`.execute(db);
  await sql`alter table payout_requests add constraint payout_requests_status_check check (status in ('requested', 'held', 'paid', 'rejected'))`.execute(db);

  await db.schema
    .createTable("off_platform_flags")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("target_type", "text", (col) => col.notNull().check(sql`target_type in ('chat_message', 'post')`))
    .addColumn("target_id", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("off_platform_flags_user_idx").on("off_platform_flags").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("off_platform_flags").execute();
  await sql`alter table payout_requests drop constraint payout_requests_status_check`.execute(db);
  await sql`alter table payout_requests add constraint payout_requests_status_check check (status in ('requested', 'paid', 'rejected'))`.execute(db);
  await db.schema.alterTable("users").dropColumn("banned_at").dropColumn("suspended_until").execute();
  for (const table of ["posts", "chat_messages", "listings", "reviews"]) await db.schema.alterTable(table).dropColumn("hidden_at").execute();
  await db.schema.dropTable("moderation_actions").execute();
  await sql`drop function gm_append_only()`.execute(db);
  await db.schema.dropTable("reports").execute();
}
