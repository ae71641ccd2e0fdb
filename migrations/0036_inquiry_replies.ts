import { sql, type Kysely } from "kysely";

/**
 * The operators' desk answers inquiries (ADR 072). An inquiry, stored since migration 0001 and read by nobody, gains:
 *
 * - `user_id`: the sender's account when they were signed in while sending (null for a visitor, and when the account
 *   is deleted later: the message and its address stay);
 * - `status`: `open` (new or reopened), `answered` (a reply was mailed), `closed` (nothing more to do), and who changed
 *   it last and when (`handled_by`, the operator's account, and `handled_label`, their address as the trail names them);
 * - `inquiry_replies`: each reply an operator sent, its text as mailed. The form's key (`idempotency_key`) is unique
 *   per inquiry, so the same form posted twice (a double click, a retried request) is one reply and one mail.
 *
 * The queue reads open inquiries oldest first, and a detail page the earlier inquiries of the same address.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("inquiries")
    .addColumn("user_id", "uuid", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (col) => col.notNull().defaultTo("open").check(sql`status in ('open', 'answered', 'closed')`))
    .addColumn("handled_by", "uuid")
    .addColumn("handled_label", "text", (col) => col.check(sql`char_length(handled_label) between 1 and 200`))
    .addColumn("handled_at", "timestamptz")
    .execute();
  await db.schema.createIndex("inquiries_status_created_idx").on("inquiries").columns(["status", "created_at", "id"]).execute();
  await sql`create index inquiries_email_idx on inquiries (lower(email), created_at desc)`.execute(db);
  await db.schema.createIndex("inquiries_user_id_idx").on("inquiries").column("user_id").where("user_id", "is not", null).execute();

  await db.schema
    .createTable("inquiry_replies")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("inquiry_id", "integer", (col) => col.notNull().references("inquiries.id").onDelete("cascade"))
    // The operator who replied: their account (no foreign key, like the audit trail's) and their address.
    .addColumn("operator_id", "uuid")
    .addColumn("operator_label", "text", (col) => col.notNull().check(sql`char_length(operator_label) between 1 and 200`))
    .addColumn("body", "text", (col) => col.notNull().check(sql`char_length(btrim(body)) between 1 and 4000`))
    .addColumn("idempotency_key", "uuid", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("inquiry_replies_key", ["inquiry_id", "idempotency_key"])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("inquiry_replies").execute();
  await sql`drop index inquiries_email_idx`.execute(db);
  await db.schema.dropIndex("inquiries_status_created_idx").execute();
  await db.schema.dropIndex("inquiries_user_id_idx").execute();
  await db.schema
    .alterTable("inquiries")
    .dropColumn("handled_at")
    .dropColumn("handled_label")
    .dropColumn("handled_by")
    .dropColumn("status")
    .dropColumn("user_id")
    .execute();
}
