import { sql, type Kysely } from "kysely";

/**
 * Heartbeats as HOT updates (bench:scale). Each server process marks the users of its sockets as seen every
 * 30 s, one statement for all of them: at SCALE=10, 10,000 online users, 270–340 ms (and 780 ms at worst) of a core,
 * every 30 s, and the measured requests beside it waited. `last_seen_at` was the key of the partial index of those
 * announced online, so every heartbeat was a new row version elsewhere in the table plus an entry in each index. No
 * query reads that index by `last_seen_at` (announcing who went offline reads every announced row, and explore reads
 * `listings.seller_online` since migration 0020), so it is keyed by `id` now; with room left in each page
 * (fillfactor 90) the new version stays in its page and no index changes: 130–150 ms for the same 10,000. Pages
 * written before this fill up to 90 % as they are rewritten.
 */
export async function up(db: Kysely<any>) {
  await sql`drop index users_online_announced_idx`.execute(db);
  await sql`create index users_online_announced_idx on users (id) where online_announced`.execute(db);
  await sql`alter table users set (fillfactor = 90)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table users reset (fillfactor)`.execute(db);
  await sql`drop index users_online_announced_idx`.execute(db);
  await sql`create index users_online_announced_idx on users (last_seen_at) where online_announced`.execute(db);
}
