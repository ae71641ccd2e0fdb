import { sql } from "kysely";
import type { Database } from "~/infra/db/schema";
import type { Realtime } from "~/infra/realtime";
import {
  CHAT_DIGEST_BATCH,
  CHAT_DIGEST_INTERVAL_MS,
  CHAT_DIGEST_LOOKBACK_MS,
  CHAT_DIGEST_MESSAGES_MAX,
  CHAT_DIGEST_QUOTE_CHARS,
  MAIL_OFFLINE_AFTER_MS,
} from "~/lib/constants";
import { TICKET_MESSAGE_TYPES } from "~/lib/chat-rules";
import { messages } from "~/lib/messages";
import { formatDateTime } from "~/lib/time";
import { enqueueMail, type NewMail } from "./mail-outbox.server";
import { takesMail } from "./mail-preferences.server";

/**
 * Chat by mail (PRODUCT §3, ADR 029): a member away for 10 minutes with unread messages in a room gets one digest
 * of them, at most one per room per hour, and another only for messages newer than the last one's. The sending of
 * a message does nothing for mail (the chat's hot path stays as it is); this sweeper job finds everyone due in one
 * set-based query, from what is already there:
 * - unread: `chat_participants.last_read_message_id`, messages from others, not from someone the reader blocked,
 *   nor the ticket notices, which come by mail as their own kinds;
 * - the last digest of a room: the newest `mail_outbox` row of kind `chat_digest` with the room as its topic
 *   (`mail_outbox_topic_idx`), whose data keeps the last message it covered.
 * Processes sweep at once safely: the job holds a transaction-level advisory lock while it reads and writes, so
 * the digests one process wrote have committed before another process looks (or that one steps aside for this run).
 */

/** The advisory lock of the digest job (any number that no other job uses). */
const DIGEST_LOCK = 0x6d_61_69_6c; // "mail"

interface DueDigest {
  user_id: string;
  room_id: string;
  email: string;
  room_type: string;
  room_name: string | null;
  unread: number;
  senders: number;
  last_message_id: string;
  quotes: Array<{ sender: string; content: string; at: string }>;
}

/** Who is due a digest of which room at `now`: up to CHAT_DIGEST_BATCH of them, with the messages to quote. */
function dueDigests(db: Database, now: Date) {
  const since = (ms: number) => new Date(now.getTime() - ms);
  const notices = sql.join(TICKET_MESSAGE_TYPES.map((type) => sql.lit(type)));
  // A message `m` that the reader `p.user_id` has not read, from someone else whom they did not block, not hidden by
  // the operators (PRODUCT §10: its sender's alone).
  const unreadFor = sql`m.id > p.last_read_message_id and m.sender_id <> p.user_id and m.hidden_at is null and m.message_type not in (${notices})
    and not exists (select 1 from user_blocks b where b.blocker_id = p.user_id and b.blocked_id = m.sender_id)`;
  return sql<DueDigest>`
    with unread as (
      select p.user_id, p.room_id, p.last_read_message_id, u.email, r.type as room_type, r.name as room_name,
        count(*)::int as unread, count(distinct m.sender_id)::int as senders, max(m.id) as last_message_id
      from chat_rooms r
      join chat_participants p on p.room_id = r.id
      join users u on u.id = p.user_id
      join chat_messages m on m.room_id = p.room_id
      where r.last_activity_at > ${since(CHAT_DIGEST_LOOKBACK_MS)}
        and ${unreadFor}
        and ${takesMail({ kind: sql`'chat_digest'`, offlineSince: sql`${since(MAIL_OFFLINE_AFTER_MS)}::timestamptz` })}
      group by p.user_id, p.room_id, p.last_read_message_id, u.email, r.type, r.name
    )
    select d.user_id, d.room_id, d.email, d.room_type, d.room_name, d.unread, d.senders, d.last_message_id, q.quotes
    from unread d
    left join lateral (
      select o.created_at, (o.data->>'lastMessageId')::bigint as last_message_id
      from mail_outbox o
      where o.user_id = d.user_id and o.kind = 'chat_digest' and o.topic = d.room_id::text
      order by o.created_at desc
      limit 1
    ) last on true
    cross join lateral (
      select json_agg(json_build_object('sender', quoted.display_name, 'content', quoted.content, 'at', quoted.created_at) order by quoted.id) as quotes
      from (
        select m.id, m.content, m.created_at, s.display_name
        from chat_messages m
        join users s on s.id = m.sender_id
        join chat_participants p on p.room_id = m.room_id and p.user_id = d.user_id
        where m.room_id = d.room_id and ${unreadFor}
        order by m.id desc
        limit ${CHAT_DIGEST_MESSAGES_MAX}
      ) quoted
    ) q
    where (last.created_at is null or last.created_at <= ${since(CHAT_DIGEST_INTERVAL_MS)})
      and d.last_message_id > coalesce(last.last_message_id, 0)
    order by d.user_id, d.room_id
    limit ${CHAT_DIGEST_BATCH}`.execute(db);
}

const oneLine = (content: string) => {
  const flat = content.replace(/\s+/g, " ").trim();
  return flat.length > CHAT_DIGEST_QUOTE_CHARS ? `${flat.slice(0, CHAT_DIGEST_QUOTE_CHARS)}…` : flat;
};

/** The digest mail of one room: its title names who wrote, its body quotes the newest unread messages. */
export function digestMail(due: DueDigest): NewMail {
  const text = messages.mail;
  const quotes = due.quotes ?? [];
  const latest = quotes[quotes.length - 1]?.sender ?? "";
  const lines = [
    ...(due.room_type !== "DIRECT" && due.room_name ? [text.digestRoom(due.room_name)] : []),
    ...quotes.map((quote) => text.digestQuote(formatDateTime(quote.at), quote.sender, oneLine(quote.content))),
    ...(due.unread > quotes.length ? [text.digestMore(due.unread - quotes.length)] : []),
  ];
  return {
    kind: "chat_digest",
    to: due.email,
    userId: due.user_id,
    topic: due.room_id,
    data: { title: text.digestTitle(latest, due.unread, due.senders > 1), body: lines.join("\n"), link: `/chat/${due.room_id}`, lastMessageId: Number(due.last_message_id) },
  };
}

/**
 * The sweeper's chat digest job: writes the digests due at `now` into the outbox, a batch per transaction, and
 * answers how many. The mail's `created_at` is `now`, so "one per hour" is measured on the sweeper's clock.
 */
export const chatDigestJob = {
  name: "chat digest",
  async run({ db, now }: { db: Database; realtime?: Realtime; now: Date }) {
    let written = 0;
    for (;;) {
      const batch = await db.transaction().execute(async (trx) => {
        const { rows: locked } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${DIGEST_LOCK}) as locked`.execute(trx);
        // Another process is writing digests right now: what is due is theirs this time.
        if (!locked[0]?.locked) return 0;
        const { rows } = await dueDigests(trx, now);
        const mails = rows.map((due) => ({ ...digestMail(due), createdAt: now }));
        await enqueueMail(trx, mails);
        return mails.length;
      });
      written += batch;
      if (batch < CHAT_DIGEST_BATCH) return written;
    }
  },
};
