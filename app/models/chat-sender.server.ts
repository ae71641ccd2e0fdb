import { sql } from "kysely";
import type { ChatMessageMetadata, ChatMessageType, Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { CHAT_RATE_LIMIT, CHAT_SEND_MAX_GROUP } from "~/lib/constants/chat";
import { looksLikeOffPlatformPayment } from "~/lib/off-platform";
import { RealtimeEvent } from "~/lib/realtime-events";
import { messagesQuery, toMessage, type ChatMessage, type MessageRow } from "./chat.server";
import { chatPushesCte } from "./push-outbox.server";
import { rateLimitWindowCte } from "./rate-limit.server";

/** A message someone typed, as every way of sending it (the socket, the API, the plain form) hands it over. */
export interface ChatSendInput {
  senderId: string;
  /**
   * The sender's session when the app can tell whether it was revoked (its own auth server): checked in the
   * statement that stores the message, so a signed-out session stops sending at once. Null with hosted Supabase.
   */
  sessionId: string | null;
  roomId: string;
  content: string;
  messageType?: ChatMessageType;
  metadata?: ChatMessageMetadata | null;
  /**
   * The id the sender's app made for the message (ADR 051). A message whose id this sender already used is
   * not stored again: the answer is the stored one, so an app that lost the answer can simply send it again.
   */
  clientId?: string | null;
}

/**
 * A chat rule a message broke, as data: the sender is created by the server and the routes live in Remix's build,
 * each with its own copy of this module, so a thrown class would not be recognised across them.
 */
export interface ChatRefusal {
  status: 401 | 403 | 404 | 409 | 429;
  code: "unauthorized" | "room_not_found" | "blocked" | "client_id_reused" | "rate_limited" | "upload_not_found" | "upload_used";
}

/** What storing one message of a group came to: the message and who hears of it, or the rule it broke. */
export type StoreOutcome = { message: ChatMessage; recipients: string[] } | { refusal: ChatRefusal };

/** What sending a message came to: the stored message, or the rule it broke. A failure of the database throws. */
export type ChatSendOutcome = { message: ChatMessage } | { refusal: ChatRefusal };

type OutcomeRow = Omit<MessageRow, "id" | "sender_id" | "display_name" | "avatar_url" | "created_at"> & {
  i: number;
  id: number | null;
  created_at: Date | null;
  hidden_at: Date | null;
  /** The sender's message with this client id, stored before: "same" when this one is a retry of it. */
  earlier: "same" | "different" | null;
  session_alive: boolean;
  is_member: boolean;
  /** An image message's upload: null for text, else whether it is the sender's chat picture and not in a message yet. */
  upload: "ok" | "missing" | "used" | null;
  blocked: boolean;
  display_name: string | null;
  avatar_url: string | null;
  recipients: string[];
};

/**
 * Stores a group of messages, each from a different sender, in one statement (one round trip, one commit): for
 * each, whether the session still stands, whether the sender is in the room, whether the other person of a DIRECT
 * room blocked them, the sender's rate limit (counted only for a message that may be sent), the message (only if the
 * limit counted it), the room's activity and the sender's read marker (your own message is read by you). Each
 * message's outcome is told apart from what comes back, in the order given. One sender per message because the
 * statement may touch each rate-limit row once; the sender's own order is kept by sending the next one later.
 *
 * A message whose client id its sender used before is not stored again (ADR 051): the outcome is the stored message,
 * as if it had just been stored, so a retry after a lost answer is answered like the first try, and announced again
 * (the first try's replica may have died between its commit and its event; clients take a message once by its id);
 * the same id on a different text or room is refused. Two tries of the same message in flight at once (an app that gave up on one
 * replica and asked another) meet in the unique index: the later insert does nothing, and the stored one is read.
 *
 * Its pushes (ADR 052) are written by the same statement: one per device of each recipient who takes them.
 *
 * A typed message that looks like an off-platform payment (docs/product.md#trust-and-safety) is counted for the operators in the same
 * statement, so a stored message is never left uncounted. The check is the rule list in this process; only a group
 * holding such a message gets the extra column and CTE, so the common statement is the same as without the count.
 */
export async function storeMessages(db: Database, inputs: readonly ChatSendInput[]): Promise<StoreOutcome[]> {
  const senders = new Set(inputs.map((input) => input.senderId));
  if (senders.size !== inputs.length) throw new Error("storeMessages: one message per sender in a group");
  const rows = inputs.map((input, i) => ({
    i,
    room_id: input.roomId,
    sender_id: input.senderId,
    session_id: input.sessionId,
    content: input.content,
    message_type: input.messageType ?? "TEXT",
    metadata: input.metadata ?? null,
    client_id: input.clientId ?? null,
    upload_id: input.messageType === "IMAGE" ? input.content : null,
  }));
  const offPlatform = inputs.map((input) => (input.messageType ?? "TEXT") === "TEXT" && looksLikeOffPlatformPayment(input.content));
  const flagged = offPlatform.some(Boolean);
  const { rows: outcomes } = await sql<OutcomeRow>`
    with input as (
      ${
        flagged
          ? sql`select * from jsonb_to_recordset(${JSON.stringify(rows.map((row, i) => ({ ...row, off_platform: offPlatform[i] })))}::jsonb)
        as x(i int, room_id uuid, sender_id uuid, session_id uuid, content text, message_type text, metadata jsonb, client_id uuid, upload_id uuid, off_platform boolean)`
          : sql`select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(i int, room_id uuid, sender_id uuid, session_id uuid, content text, message_type text, metadata jsonb, client_id uuid, upload_id uuid)`
      }
    ), earlier as (
      select x.i, e.id, e.content, e.message_type, e.metadata, e.room_id, e.created_at, e.hidden_at,
        case when e.room_id = x.room_id and e.content = x.content then 'same' else 'different' end as earlier
      from input x join chat_messages e on e.sender_id = x.sender_id and e.client_id = x.client_id
    ), members as (
      select x.i, p.user_id, r.type, u.display_name, u.avatar_url, b.blocker_id is not null as blocked_sender
      from input x
      join chat_participants p on p.room_id = x.room_id
      join chat_rooms r on r.id = p.room_id
      join users u on u.id = p.user_id
      left join user_blocks b on b.blocker_id = p.user_id and b.blocked_id = x.sender_id
    ), picture as (
      -- An image message's upload: the sender's own private chat picture, and whether a message shows it already.
      select x.i, up.width, up.height, up.placeholder, exists (select 1 from chat_messages u where u.upload_id = up.id) as used
      from input x join uploads up on up.id = x.upload_id and up.owner_id = x.sender_id and up.kind = 'chat' and up.url like 'private:%'
    ), judged as (
      select x.*, s.display_name, s.avatar_url, s.user_id is not null as is_member,
        case when x.upload_id is null then null when pic.i is null then 'missing' when pic.used then 'used' else 'ok' end as upload,
        case when pic.i is null then x.metadata
          else coalesce(x.metadata, '{}'::jsonb) || jsonb_strip_nulls(jsonb_build_object('width', pic.width, 'height', pic.height, 'placeholder', pic.placeholder)) end as stored_metadata,
        -- In a DIRECT room, someone who blocked you cannot be messaged at all.
        coalesce(s.type = 'DIRECT' and exists (
          select 1 from members o where o.i = x.i and o.user_id <> x.sender_id and o.blocked_sender
        ), false) as blocked,
        (x.session_id is null or exists (
          select 1 from auth_sessions a where a.id = x.session_id and a.user_id = x.sender_id and a.revoked_at is null
        )) as session_alive
      from input x
      left join members s on s.i = x.i and s.user_id = x.sender_id
      left join picture pic on pic.i = x.i
    ), admitted as (
      select *, 'chat:user:' || sender_id as bucket from judged j
      where session_alive and is_member and not blocked and coalesce(upload = 'ok', true) and not exists (select 1 from earlier e where e.i = j.i)
    ), ${rateLimitWindowCte({ bucket: sql<string>`bucket`, ...CHAT_RATE_LIMIT, from: "admitted" })},
    message as (
      insert into chat_messages (room_id, sender_id, content, message_type, metadata, client_id, upload_id)
      select a.room_id, a.sender_id, a.content, a.message_type, a.stored_metadata, a.client_id, a.upload_id
      from admitted a join rate_limit_counted c on c.bucket = a.bucket
      order by a.i
      -- Either unique index: a retry in flight elsewhere (sender, client id), or the same picture sent twice at once.
      on conflict do nothing
      returning id, content, message_type, metadata, room_id, sender_id, created_at, client_id
    ), room as (
      update chat_rooms set last_activity_at = m.at, last_message_id = greatest(chat_rooms.last_message_id, m.id)
      from (select room_id, max(created_at) as at, max(id) as id from message group by room_id) m where chat_rooms.id = m.room_id
    ), read_marker as (
      update chat_participants set last_read_message_id = m.id
      from message m where chat_participants.room_id = m.room_id and chat_participants.user_id = m.sender_id
    )${chatPushesCte()}${
      flagged
        ? sql`, off_platform_flag as (
      insert into off_platform_flags (user_id, target_type, target_id)
      select m.sender_id, 'chat_message', m.id::text from message m join input x on x.sender_id = m.sender_id where x.off_platform
    )`
        : sql``
    }
    select j.i, j.session_alive, j.is_member, j.blocked, j.upload, j.display_name, j.avatar_url, j.client_id, e.earlier,
      coalesce(m.id, e.id) as id, coalesce(m.content, e.content) as content, coalesce(m.message_type, e.message_type) as message_type,
      coalesce(m.metadata, e.metadata) as metadata, coalesce(m.room_id, e.room_id) as room_id, coalesce(m.created_at, e.created_at) as created_at,
      e.hidden_at,
      coalesce((
        select json_agg(o.user_id) from members o where o.i = j.i and o.user_id <> j.sender_id and not o.blocked_sender
      ), '[]'::json) as recipients
    from judged j
    left join message m on m.sender_id = j.sender_id
    left join earlier e on e.i = j.i
    order by j.i`.execute(db);
  const results = outcomes.map((row): StoreOutcome | { raced: string[] } => {
    if (!row.session_alive) return { refusal: { status: 401, code: "unauthorized" } };
    if (row.earlier === "different") return { refusal: { status: 409, code: "client_id_reused" } };
    const sender = inputs[row.i]!;
    const message = () =>
      toMessage({ ...row, id: row.id!, created_at: row.created_at!, sender_id: sender.senderId, display_name: row.display_name!, avatar_url: row.avatar_url });
    if (row.earlier === "same") return { message: message(), recipients: row.recipients };
    if (!row.is_member) return { refusal: { status: 404, code: "room_not_found" } };
    if (row.blocked) return { refusal: { status: 403, code: "blocked" } };
    if (row.upload === "missing") return { refusal: { status: 404, code: "upload_not_found" } };
    if (row.upload === "used") return { refusal: { status: 409, code: "upload_used" } };
    // Not stored: over the rate limit, or the same message stored by another statement a moment before (its insert
    // met this one in the unique index).
    if (row.id === null || row.created_at === null) return row.client_id ? { raced: row.recipients } : { refusal: { status: 429, code: "rate_limited" } };
    return { message: message(), recipients: row.recipients };
  });
  const isRaced = (result: StoreOutcome | { raced: string[] }): result is { raced: string[] } => "raced" in result;
  if (!results.some(isRaced)) return results as StoreOutcome[];
  const raced = inputs.filter((_, i) => isRaced(results[i]!));
  const stored = await messagesQuery(db)
    .select("m.hidden_at")
    .where((eb) => eb.or(raced.map((input) => eb.and([eb("m.sender_id", "=", input.senderId), eb("m.client_id", "=", input.clientId!)]))))
    .execute();
  return results.map((result, i): StoreOutcome => {
    if (!isRaced(result)) return result;
    const input = inputs[i]!;
    const row = stored.find((candidate) => candidate.sender_id === input.senderId && candidate.client_id === input.clientId);
    // Not stored and not found: over the limit, or the picture went into another message at the same moment.
    if (!row) return { refusal: input.messageType === "IMAGE" ? { status: 409, code: "upload_used" } : { status: 429, code: "rate_limited" } };
    if (row.room_id !== input.roomId || row.content !== input.content) return { refusal: { status: 409, code: "client_id_reused" } };
    return { message: toMessage(row), recipients: result.raced };
  });
}

/** Whether the sender stored a message with this client id already (a plain form posted again after a lost answer). */
export async function hasSent(db: Database, { senderId, clientId }: { senderId: string; clientId: string }) {
  const row = await db.selectFrom("chat_messages").select("id").where("sender_id", "=", senderId).where("client_id", "=", clientId).executeTakeFirst();
  return row !== undefined;
}

/** Sends the messages people type; `send` answers once the message is stored and its event is on its way. */
export interface ChatSender {
  /**
   * Stores the message (grouped with others that arrive meanwhile), then tells the sender's and the recipients'
   * sockets, then answers. A rule broken is an answer too; a failed commit rejects.
   */
  send(input: ChatSendInput): Promise<ChatSendOutcome>;
  /** Messages waiting for, or in, a commit. */
  pending(): number;
  /** Resolves once everything handed over so far has been stored or refused. */
  drain(): Promise<void>;
}

interface Waiting {
  input: ChatSendInput;
  resolve(outcome: ChatSendOutcome): void;
  reject(error: unknown): void;
}

/**
 * Group commit (ADR 026). A message that arrives while the database is busy waits for the statement in flight, and
 * everything that waited goes in the next one: one statement and one commit for the group, its size set by the load
 * (one message when the server is quiet, no waiting added). Every sender's answer and every delivery come after that
 * commit; if it fails, every message of the group is refused and none was stored. A sender's messages keep their
 * order: a group takes one message per sender, and none of a sender whose message is still in a commit.
 */
export function createChatSender({
  db,
  realtime,
  concurrency = 1,
  maxGroup = CHAT_SEND_MAX_GROUP,
  onGroup,
}: {
  db: Database;
  realtime: Realtime;
  /** Groups in flight at once: 1 for PGlite (one connection), a few for a pool. */
  concurrency?: number;
  maxGroup?: number;
  /** Told of every group once its commit is over (or failed): how many messages it held (tests, metrics). */
  onGroup?: (group: { size: number; ok: boolean; ms: number }) => void;
}): ChatSender {
  const queue: Waiting[] = [];
  const sendersInFlight = new Set<string>();
  let running = 0; // groups in a commit
  let sending = 0; // messages in them
  let scheduled = false;
  const idle: Array<() => void> = [];

  // Messages that arrive in the same turn of the event loop join one group: the commit starts after that turn.
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(run);
  };

  function take() {
    const group: Waiting[] = [];
    const senders = new Set<string>();
    for (let i = 0; i < queue.length && group.length < maxGroup; ) {
      const { senderId } = queue[i]!.input;
      if (senders.has(senderId) || sendersInFlight.has(senderId)) {
        senders.add(senderId); // a later message of the same sender waits too, to keep the order
        i++;
        continue;
      }
      senders.add(senderId);
      group.push(queue.splice(i, 1)[0]!);
    }
    return group;
  }

  function run() {
    scheduled = false;
    while (running < concurrency && queue.length > 0) {
      const group = take();
      if (group.length === 0) break;
      running++;
      sending += group.length;
      for (const { input } of group) sendersInFlight.add(input.senderId);
      void commit(group).finally(() => {
        running--;
        sending -= group.length;
        for (const { input } of group) sendersInFlight.delete(input.senderId);
        if (queue.length > 0) schedule();
        else if (running === 0) for (const resolve of idle.splice(0)) resolve();
      });
    }
  }

  async function commit(group: Waiting[]) {
    const started = performance.now();
    let outcomes: StoreOutcome[];
    try {
      outcomes = await storeMessages(db, group.map((waiting) => waiting.input));
    } catch (error) {
      onGroup?.({ size: group.length, ok: false, ms: performance.now() - started });
      for (const waiting of group) waiting.reject(error);
      return;
    }
    onGroup?.({ size: group.length, ok: true, ms: performance.now() - started });
    outcomes.forEach((outcome, i) => {
      const waiting = group[i]!;
      if ("refusal" in outcome) return waiting.resolve(outcome);
      // The message is stored: the event is only a hint, a reconnecting client refetches (docs/product.md#realtime).
      realtime.toUsers([waiting.input.senderId, ...outcome.recipients], RealtimeEvent.chatMessage, outcome.message);
      waiting.resolve({ message: outcome.message });
    });
  }

  return {
    send(input) {
      return new Promise<ChatSendOutcome>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        schedule();
      });
    },
    pending: () => queue.length + sending,
    drain() {
      if (queue.length === 0 && running === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
