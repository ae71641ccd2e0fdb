import { sql, type Kysely } from "kysely";

/**
 * Notification mails (ADR 029): the booking start reminder, an hour before an accepted booking's start.
 * `bookings.start_reminded_at` marks a booking reminded, so the sweeper job that claims due bookings (`FOR UPDATE
 * SKIP LOCKED`) sends it once however many processes sweep; the partial index holds only what may still be due.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("bookings").addColumn("start_reminded_at", "timestamptz").execute();
  await sql`create index bookings_start_reminder_idx on bookings (desired_start_at) where status = 'accepted' and start_reminded_at is null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index bookings_start_reminder_idx`.execute(db);
  await db.schema.alterTable("bookings").dropColumn("start_reminded_at").execute();
}
