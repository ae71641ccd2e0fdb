import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import {
  CHAT_DIGEST_BATCH,
  CHAT_DIGEST_INTERVAL_MS,
  CHAT_DIGEST_LOOKBACK_MS,
  CHAT_DIGEST_MESSAGES_MAX,
  CHAT_DIGEST_QUOTE_CHARS,
  CHAT_DIGEST_STALE_ROOMS_SETTLED,
  MAIL_OFFLINE_AFTER_MS,
} from "~/lib/constants";
import { BOOKING_MESSAGE_TYPES } from "~/lib/chat-rules";
import { messageSummary, type SummarisedMessage } from "~/lib/chat-summary";
import { messages } from "~/lib/messages";
import { formatDateTime } from "~/lib/time";
import { enqueueMail, type NewMail } from "./mail-outbox.server";
import { takesMail } from "./mail-preferences.server";
import { seenSince } from "./presence.server";

/**
 * Chat by mail (docs/product.md#accounts, ADR 029, ADR 043): a member away for 10 minutes with unread messages in a room gets one
 * digest of them, at most one per room per hour, and another only for messages newer than the last one's. Sending a
 * message only moves its room's `last_message_id` (with `last_activity_at`, in the update it always made); this
 * sweeper job finds who is due from marks kept where it reads (migration 0024):
 * - unread: `chat_participants.last_read_message_id`, messages from others, not from someone the reader blocked,
 *   nor the booking notices, which come by mail as their own kinds;
 * - a member's mark: `digested_message_id`, the newest message of the room the job has looked at for them, and
 *   `digested_at`, the time of their last digest of it;
 * - a room's mark: `digest_settled_id`, up to which message every member is settled (read it, had it in a digest, or
 *   was looked at with nothing to send). Only rooms with a newer message (`chat_rooms_digest_pending_idx`) are read.
 * A member is looked at when they are away, their room holds a message newer than both of their marks, and an hour
 * has passed since their last digest of it; their unread messages are counted, and quoted where a digest is due.
 * Looking moves their mark to the room's newest message, a digest or not (what was new were their own messages, a
 * blocked person's, booking notices; or they take no digests); a room whose members are all settled leaves the pending
 * index. A member online, or within their hour, keeps their room pending until their turn. So a sweep costs what
 * changed since the last one, not the day's rooms (43,000 rooms and 0.9 s a sweep at SCALE=10 with the marks alone).
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
  quotes: Array<SummarisedMessage & { sender: string; at: string }>;
}

/**
 * A member looked at: whether they take digests, their unread messages (`last_message_id` the newest of them) and,
 * where a digest is due, its quotes; and the room's newest message, their new mark.
 */
interface Looked extends Omit<DueDigest, "last_message_id"> {
  takes_mail: boolean;
  newest_id: string;
  digested_message_id: string;
  last_message_id: string | null;
}

/** Up to CHAT_DIGEST_BATCH members to look at `now`, from the rooms pending, with their unread messages counted and quoted. */
function lookAt(db: Database, now: Date) {
  const since = (ms: number) => new Date(now.getTime() - ms);
  const away = since(MAIL_OFFLINE_AFTER_MS);
  const notices = sql.join(BOOKING_MESSAGE_TYPES.map((type) => sql.lit(type)));
  // A message `m` that the reader `c.user_id` has not read, from someone else whom they did not block, not hidden by
  // the operators (docs/product.md#trust-and-safety: its sender's alone).
  const unreadFor = sql`m.room_id = c.room_id and m.id > c.last_read_message_id and m.sender_id <> c.user_id and m.hidden_at is null
    and m.message_type not in (${notices})
    and not exists (select 1 from user_blocks b where b.blocker_id = c.user_id and b.blocked_id = m.sender_id)`;
  return sql<Looked>`
    with c as materialized (
      select p.user_id, p.room_id, p.last_read_message_id, p.digested_message_id, r.last_message_id as newest_id, u.email,
        r.type as room_type, r.name as room_name, ${takesMail({ kind: sql`'chat_digest'`, offlineSince: sql`${away}::timestamptz` })} as takes_mail
      from chat_rooms r
      join chat_participants p on p.room_id = r.id
      join users u on u.id = p.user_id
      where r.last_activity_at > ${since(CHAT_DIGEST_LOOKBACK_MS)} and r.last_message_id > r.digest_settled_id
        and r.last_message_id > greatest(p.last_read_message_id, p.digested_message_id)
        and (p.digested_at is null or p.digested_at <= ${since(CHAT_DIGEST_INTERVAL_MS)})
        and not ${seenSince("u.id", away)}
      limit ${CHAT_DIGEST_BATCH}
    )
    select c.user_id, c.room_id, c.email, c.room_type, c.room_name, c.newest_id, c.digested_message_id, c.takes_mail,
      s.unread, s.senders, s.last_message_id, q.quotes
    from c
    cross join lateral (
      select count(*)::int as unread, count(distinct m.sender_id)::int as senders, max(m.id) as last_message_id
      from chat_messages m where c.takes_mail and ${unreadFor}
    ) s
    cross join lateral (
      select json_agg(json_build_object('sender', quoted.display_name, 'content', quoted.content, 'messageType', quoted.message_type,
        'metadata', quoted.metadata, 'at', quoted.created_at) order by quoted.id) as quotes
      from (
        select m.id, m.content, m.message_type, m.metadata, m.created_at, author.display_name
        from chat_messages m
        join users author on author.id = m.sender_id
        where s.last_message_id > c.digested_message_id and ${unreadFor}
        order by m.id desc
        limit ${CHAT_DIGEST_MESSAGES_MAX}
      ) quoted
    ) q`.execute(db);
}

/** The pending rooms (all of them, or those of `roomIds`) whose members are all settled: read, digested or looked at up to the newest message. */
const settled = (roomIds?: readonly string[]) => sql`
  update chat_rooms r set digest_settled_id = r.last_message_id
  where r.last_message_id > r.digest_settled_id ${roomIds ? sql`and r.id in (${sql.join(roomIds)})` : sql``}
    and not exists (
      select 1 from chat_participants p
      where p.room_id = r.id and greatest(p.last_read_message_id, p.digested_message_id) < r.last_message_id
    )`;

/**
 * Settles the pending rooms whose members all are, and the rooms quiet for longer than the lookback, which the digest
 * no longer looks at: they leave the pending index.
 */
async function settleRooms(db: Database, now: Date) {
  const lookback = new Date(now.getTime() - CHAT_DIGEST_LOOKBACK_MS);
  await sql`${settled()} and r.last_activity_at > ${lookback}`.execute(db);
  await sql`
    update chat_rooms r set digest_settled_id = r.last_message_id
    where r.id in (
      select id from chat_rooms where last_activity_at <= ${lookback} and last_message_id > digest_settled_id
      order by last_activity_at limit ${CHAT_DIGEST_STALE_ROOMS_SETTLED}
    )`.execute(db);
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
    ...quotes.map((quote) => text.digestQuote(formatDateTime(quote.at), quote.sender, oneLine(messageSummary(quote)))),
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
        // The pending index loses a room at every settle and gains it back at the next message, so it holds many
        // entries of row versions no longer pending until the table is vacuumed. A plain index scan marks those dead
        // as it passes and skips them next time; a bitmap scan (the planner's choice for the settle) reads their heap
        // pages on every sweep: 560 ms against 31 ms for 591 pending rooms among 82,000 entries at SCALE=10.
        await sql`set local enable_bitmapscan = off`.execute(trx);
        const { rows } = await lookAt(trx, now);
        const due = rows.filter(isDue).filter((row) => row.takes_mail);
        await enqueueMail(trx, due.map((row) => ({ ...digestMail(row), createdAt: now })));
        if (rows.length > 0) {
          const marks = JSON.stringify(rows.map((row) => ({ user_id: row.user_id, room_id: row.room_id, newest_id: String(row.newest_id), due: due.some((d) => d === row) })));
          await sql`
            update chat_participants p
            set digested_message_id = greatest(p.digested_message_id, v.newest_id), digested_at = case when v.due then ${now} else p.digested_at end
            from jsonb_to_recordset(${marks}::jsonb) as v(user_id uuid, room_id uuid, newest_id bigint, due boolean)
            where p.user_id = v.user_id and p.room_id = v.room_id`.execute(trx);
        }
        // The rooms of this batch leave the pending index as soon as they are settled, so that the next batch does
        // not read again through the members this one looked at (a day's catch-up after a deploy: 86,000 members).
        if (rows.length > 0) await sql`${settled([...new Set(rows.map((row) => row.room_id))])}`.execute(trx);
        if (rows.length < CHAT_DIGEST_BATCH) await settleRooms(trx, now);
        return { looked: rows.length, digests: due.length };
      });
      written += digests;
      if (looked < CHAT_DIGEST_BATCH) return written;
    }
  },
};
