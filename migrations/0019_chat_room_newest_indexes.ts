import { sql, type Kysely } from "kysely";

/**
 * A room's newest messages read from an index of their own (bench:scale). With one index on (room_id, id)
 * and a filter on `hidden_at`, PostgreSQL read a room's newest page by scanning the primary key backwards from the
 * newest message of all rooms, expecting the room's rows spread evenly; a busy room whose messages are older than
 * everyone else's cost 2M rows read for 31 shown (230 ms at 2M messages). The messages anyone may see live in a
 * partial index with their sender (the blocked check needs it), the few hidden ones in another; each half of the
 * query reads its own backwards.
 */
export async function up(db: Kysely<any>) {
  await sql`create index chat_messages_room_visible_idx on chat_messages (room_id, id) include (sender_id) where hidden_at is null`.execute(db);
  await sql`create index chat_messages_room_hidden_idx on chat_messages (room_id, sender_id, id) where hidden_at is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index chat_messages_room_hidden_idx`.execute(db);
  await sql`drop index chat_messages_room_visible_idx`.execute(db);
}
