import { sql, type Kysely } from "kysely";

/**
 * Where the chat digest stands, kept per member of a room (issue 37, bench:scale). The digest job (ADR 029) found
 * who was due by counting every unread message of every member of every room active in the last 24 hours, on every
 * run, and looked up each one's last digest in `mail_outbox`: with 40,000 rooms in that window at SCALE=10 it took
 * 2.3–3.3 s per batch of 200. Now a member is looked at only when their room holds a message newer than both what
 * they read and what the job last looked at for them (`digested_message_id`), and no more than once an hour after a
 * digest (`digested_at`); the messages are counted and quoted only for the members chosen.
 *
 * The rooms active within the day come from an index of their own rather than a read of every room (2M at SCALE=10);
 * a message's update of its room's `last_activity_at` is no longer a HOT update for it, a few index entries more
 * on the chat's hot path.
 *
 * The marks start from the digests already sent, so nobody gets a second digest of messages a first one covered.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table chat_participants
    add column digested_message_id bigint not null default 0,
    add column digested_at timestamptz`.execute(db);
  await sql`create index chat_rooms_last_activity_idx on chat_rooms (last_activity_at)`.execute(db);
  await sql`update chat_participants p set digested_message_id = d.last_message_id, digested_at = d.created_at
    from (
      select user_id, topic, max((data->>'lastMessageId')::bigint) as last_message_id, max(created_at) as created_at
      from mail_outbox where kind = 'chat_digest' and user_id is not null and topic is not null
      group by user_id, topic
    ) d
    where p.user_id = d.user_id and p.room_id::text = d.topic`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index chat_rooms_last_activity_idx`.execute(db);
  await sql`alter table chat_participants drop column digested_message_id, drop column digested_at`.execute(db);
}
