import { sql, type Kysely } from "kysely";

/**
 * The subscriptions due a reminder from an index of their own (bench:scale). The reminder job asks for the
 * soonest expiries within 3 days not reminded yet; through `subscriptions_expires_idx` it read every subscription
 * of those 3 days that had been reminded already to reach them (a tenth of all subscriptions: 500,000 at SCALE=10).
 * This index holds only the expiries not reminded yet; a reminder takes its row out.
 */
export async function up(db: Kysely<any>) {
  await sql`create index subscriptions_unreminded_idx on subscriptions (expires_at) where reminded_expires_at is distinct from expires_at`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index subscriptions_unreminded_idx`.execute(db);
}
