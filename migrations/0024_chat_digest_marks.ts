import { sql, type Kysely } from "kysely";

/**
 * Where the chat digest stands, kept in the rows it reads (bench:scale). The digest job (ADR 029) found who
 * was due by counting every unread message of every member of every room active in the last 24 hours, on every run,
 * and looked up each one's last digest in `mail_outbox`: 2.3–3.3 s per batch of 200 at SCALE=10, where 43,000 rooms
 * are active in a day. Now (ADR 043):
 * - `chat_participants.digested_message_id`: the newest message of the room the job has looked at for the member,
 *   and `digested_at`, the time of their last digest of it;
 * - `chat_rooms.last_message_id`: the room's newest message, written with `last_activity_at` by every send;
 * - `chat_rooms.digest_settled_id`: up to which message every member of the room is settled (read, digested, or
 *   looked at with nothing to send);
 * - `chat_rooms_digest_pending_idx`: the rooms with a message past that, by last activity. A sweep reads only those.
 *
 * The marks start from the digests already sent, so nobody gets a second digest of messages a first one covered;
 * rooms quiet for a day start settled (the digest never looks further back), the others are looked at once.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table chat_participants
    add column digested_message_id bigint not null default 0,
    add column digested_at timestamptz`.execute(db);
  await sql`alter table chat_rooms
    add column last_message_id bigint not null default 0,
    add column digest_settled_id bigint not null default 0`.execute(db);
  await sql`update chat_participants p set digested_message_id = d.last_message_id, digested_at = d.created_at
    from (
      select user_id, topic, max((data->>'lastMessageId')::bigint) as last_message_id, max(created_at) as created_at
      from mail_outbox where kind = 'chat_digest' and user_id is not null and topic is not null
      group by user_id, topic
    ) d
    where p.user_id = d.user_id and p.room_id::text = d.topic`.execute(db);
  await sql`update chat_rooms r set last_message_id = m.id,
      digest_settled_id = case when r.last_activity_at <= now() - interval '1 day' then m.id else 0 end
    from (select room_id, max(id) as id from chat_messages group by room_id) m
    where m.room_id = r.id`.execute(db);
  await sql`create index chat_rooms_digest_pending_idx on chat_rooms (last_activity_at) where last_message_id > digest_settled_id`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index chat_rooms_digest_pending_idx`.execute(db);
  await sql`alter table chat_rooms drop column last_message_id, drop column digest_settled_id`.execute(db);
  await sql`alter table chat_participants drop column digested_message_id, drop column digested_at`.execute(db);
}
