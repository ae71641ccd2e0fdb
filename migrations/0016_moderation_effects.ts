import { sql, type Kysely } from "kysely";

/**
 * What a suspension or ban does to the money and the listings (ADR 030):
 * - a booking cancelled by the operators says so (`cancel_reason` 'moderation', `cancelled_by` 'auto'), and an
 *   in-progress session can be cancelled (its `started_at`/`ends_at` stay, as what happened);
 * - `listings.moderation_paused_at` marks the listings a suspension paused, so lifting it reactivates exactly those
 *   and not the ones their seller had paused themselves.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table bookings drop constraint bookings_cancel_reason_check`.execute(db);
  await sql`alter table bookings add constraint bookings_cancel_reason_check
    check (cancel_reason in ('buyer', 'seller', 'no_show', 'accept_deadline', 'not_started', 'moderation'))`.execute(db);
  await sql`alter table bookings drop constraint bookings_status_times`.execute(db);
  await sql`alter table bookings add constraint bookings_status_times check (
    (accepted_at is not null) = (status in ('accepted', 'in_progress', 'completed') or (status = 'cancelled' and accepted_at is not null))
    and (started_at is not null) = (ends_at is not null)
    and (status not in ('in_progress', 'completed') or started_at is not null)
    and (started_at is null or status in ('in_progress', 'completed') or (status = 'cancelled' and cancel_reason = 'moderation'))
    and (completed_at is not null) = (status = 'completed') and (completed_by is not null) = (status = 'completed')
    and (cancelled_at is not null) = (status = 'cancelled') and (cancelled_by is not null) = (status = 'cancelled')
    and (cancel_reason is not null) = (status = 'cancelled'))`.execute(db);
  await db.schema.alterTable("listings").addColumn("moderation_paused_at", "timestamptz").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("listings").dropColumn("moderation_paused_at").execute();
  await sql`alter table bookings drop constraint bookings_status_times`.execute(db);
  await sql`alter table bookings add constraint bookings_status_times check (
    (accepted_at is not null) = (status in ('accepted', 'in_progress', 'completed') or (status = 'cancelled' and accepted_at is not null))
    and (started_at is not null) = (ends_at is not null)
    and (started_at is not null) = (status in ('in_progress', 'completed'))
    and (completed_at is not null) = (status = 'completed') and (completed_by is not null) = (status = 'completed')
    and (cancelled_at is not null) = (status = 'cancelled') and (cancelled_by is not null) = (status = 'cancelled')
    and (cancel_reason is not null) = (status = 'cancelled'))`.execute(db);
  await sql`alter table bookings drop constraint bookings_cancel_reason_check`.execute(db);
  await sql`alter table bookings add constraint bookings_cancel_reason_check
    check (cancel_reason in ('buyer', 'seller', 'no_show', 'accept_deadline', 'not_started'))`.execute(db);
}
