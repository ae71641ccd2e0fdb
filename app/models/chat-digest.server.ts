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
 * - where the digest stands (migration 0024): `chat_participants.digested_message_id`, the newest message of the
 *   room the job has looked at for that member, and `digested_at`, the time of their last digest of it.
 * A member is looked at only when their room, active within the day, holds a message newer than both marks, and not
 * within the hour after a digest; their unread messages are counted and quoted only then. Looking moves the mark to
 * the room's newest message whether a digest went out or not (what was new were their own messages, a blocked
 * person's or ticket notices), so nobody is looked at twice for the same messages: a sweep costs what is new, not
 * every unread message of the day (2.3–3.3 s a batch at SCALE=10 before).
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

/** A member looked at: their digest when one is due (`last_message_id` newer than their mark), and the room's newest message. */
interface Looked extends Omit<DueDigest, "last_message_id"> {
  newest_id: string;
  digested_message_id: string;
  last_message_id: string | null;
}

/** Up to CHAT_DIGEST_BATCH members to look at `now`, with their unread messages counted, and quoted where a digest is due. */
function lookAt(db: Database, now: Date) {
  const since = (ms: number) => new Date(now.getTime() - ms);
  const notices = sql.join(TICKET_MESSAGE_TYPES.map((type) => sql.lit(type)));
  // A message `m` that the reader `c.user_id` has not read, from someone else whom they did not block, not hidden by
  // the operators (PRODUCT §10: its sender's alone).
  const unreadFor = sql`m.room_id = c.room_id and m.id > c.last_read_message_id and m.sender_id <> c.user_id and m.hidden_at is null
    and m.message_type not in (${notices})
    and not exists (select 1 from user_blocks b where b.blocker_id = c.user_id and b.blocked_id = m.sender_id)`;
  return sql<Looked>`
    with rooms as materialized (
      select r.id, r.type, r.name, (select max(m.id) from chat_messages m where m.room_id = r.id) as newest_id
      from chat_rooms r
      where r.last_activity_at > ${since(CHAT_DIGEST_LOOKBACK_MS)}
    ), c as materialized (
      select p.user_id, p.room_id, p.last_read_message_id, p.digested_message_id, r.newest_id, u.email, r.type as room_type, r.name as room_name
      from rooms r
      join chat_participants p on p.room_id = r.id
      join users u on u.id = p.user_id
      where r.newest_id > greatest(p.last_read_message_id, p.digested_message_id)
        and (p.digested_at is null or p.digested_at <= ${since(CHAT_DIGEST_INTERVAL_MS)})
        and ${takesMail({ kind: sql`'chat_digest'`, offlineSince: sql`${since(MAIL_OFFLINE_AFTER_MS)}::timestamptz` })}
      limit ${CHAT_DIGEST_BATCH}
    )
    select c.user_id, c.room_id, c.email, c.room_type, c.room_name, c.newest_id, c.digested_message_id,
      s.unread, s.senders, s.last_message_id, q.quotes
    from c
    cross join lateral (
      select count(*)::int as unread, count(distinct m.sender_id)::int as senders, max(m.id) as last_message_id
      from chat_messages m where ${unreadFor}
    ) s
    left join lateral (
      select json_agg(json_build_object('sender', quoted.display_name, 'content', quoted.content, 'at', quoted.created_at) order by quoted.id) as quotes
      from (
        select m.id, m.content, m.created_at, author.display_name
        from chat_messages m
        join users author on author.id = m.sender_id
        where s.last_message_id > c.digested_message_id and ${unreadFor}
        order by m.id desc
        limit ${CHAT_DIGEST_MESSAGES_MAX}
      ) quoted
    ) q on true`.execute(db);
}

/** Whether a member looked at is due a digest: unread messages newer than what the last one covered. */
const isDue = (looked: Looked): looked is Looked & { last_message_id: string } =>
  looked.last_message_id !== null && BigInt(looked.last_message_id) > BigInt(looked.digested_message_id);

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
 * The sweeper's chat digest job: writes the digests due at `now` into the outbox and moves the members' marks, a
 * batch per transaction, and answers how many digests. The mail's `created_at` and the mark's `digested_at` are
 * `now`, so "one per hour" is measured on the sweeper's clock.
 */
export const chatDigestJob = {
  name: "chat digest",
  async run({ db, now }: { db: Database; realtime?: Realtime; now: Date }) {
    let written = 0;
    for (;;) {
      const { looked, digests } = await db.transaction().execute(async (trx) => {
        const { rows: locked } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${DIGEST_LOCK}) as locked`.execute(trx);
        // Another process is writing digests right now: what is due is theirs this time.
        if (!locked[0]?.locked) return { looked: 0, digests: 0 };
        const { rows } = await lookAt(trx, now);
        const due = rows.filter(isDue);
        await enqueueMail(trx, due.map((row) => ({ ...digestMail(row), createdAt: now })));
        if (rows.length > 0) {
          const marks = JSON.stringify(rows.map((row) => ({ user_id: row.user_id, room_id: row.room_id, newest_id: String(row.newest_id), due: isDue(row) })));
          await sql`
            update chat_participants p
            set digested_message_id = greatest(p.digested_message_id, v.newest_id), digested_at = case when v.due then ${now} else p.digested_at end
            from jsonb_to_recordset(${marks}::jsonb) as v(user_id uuid, room_id uuid, newest_id bigint, due boolean)
            where p.user_id = v.user_id and p.room_id = v.room_id`.execute(trx);
        }
        return { looked: rows.length, digests: due.length };
      });
      written += digests;
      if (looked < CHAT_DIGEST_BATCH) return written;
    }
  },
};
