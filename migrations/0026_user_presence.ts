import { sql, type Kysely } from "kysely";

/**
 * Last signs of life in a narrow table of their own (bench:scale). Each server process marks the users of its
 * sockets as seen every 30 s. In `users` (wide rows, 1M of them at SCALE=10) each of the 10,000 online users sat on a
 * page of their own: one heartbeat dirtied 8,465 pages (295–320 ms, and a full page image of each in the WAL after a
 * checkpoint), and the requests beside it waited. `user_presence` holds only the users seen in the last hour (the
 * presence sweep deletes older rows; no reader looks further back than 10 minutes, and no row means "not seen"), about
 * 150 to a page and with room left in each for the next version (fillfactor 50, no index on `last_seen_at`, so every
 * heartbeat is a HOT update). `users.online_announced` stays where it is: it changes only when someone comes or goes.
 */
export async function up(db: Kysely<any>) {
  await sql`
    create table user_presence (
      user_id uuid primary key references users (id) on delete cascade,
      last_seen_at timestamptz not null
    ) with (fillfactor = 50)`.execute(db);
  await sql`insert into user_presence (user_id, last_seen_at) select id, last_seen_at from users where last_seen_at > now() - interval '1 hour'`.execute(db);
  await sql`alter table users drop column last_seen_at`.execute(db);
  await sql`alter table users reset (fillfactor)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table users set (fillfactor = 90)`.execute(db);
  await sql`alter table users add column last_seen_at timestamptz`.execute(db);
  await sql`update users u set last_seen_at = p.last_seen_at from user_presence p where p.user_id = u.id`.execute(db);
  await sql`drop table user_presence`.execute(db);
}
