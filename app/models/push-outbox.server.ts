import { sql, type RawBuilder } from "kysely";
import type { Database, PushUrgency } from "~/infra/db/tables";
import {
  PUSH_BATCH,
  PUSH_BODY_CHARS,
  PUSH_CLAIM_MS,
  PUSH_FAILED_KEPT_MS,
  PUSH_FOCUS_WINDOW_MS,
  PUSH_RETRY,
  PUSH_TIMEOUT_MS,
  PUSH_TTL_SECONDS,
  type MailKind,
  type PushKind,
} from "~/lib/constants";
import { messageSummary } from "~/lib/chat-summary";
import { messages } from "~/lib/messages";

/**
 * The push outbox (ADR 052), the mail outbox's sibling (ADR 027): a push is a row per device, written with
 * the producer's transaction (a chat message's statement, a notification, a post), so a rolled-back event pushes
 * nothing and a committed one is not lost. Delivery claims due rows for a minute (`FOR UPDATE SKIP LOCKED`, so two
 * processes never take the same row), sends each outside any transaction, and deletes it once its push service took
 * it; 429, 5xx and no answer wait (30 s doubling, 6 tries) for a later pass, then it is given up; 404/410 deletes the
 * device. A waiting push is replaced by a newer one of the same topic for the same device (a chat room's burst is
 * one push), and the push service does the same with the `Topic` header for what it still holds.
 *
 * What a push says is `{ title, body, url, tag }` (the service worker shows exactly these): a title, a body of at most
 * 80 characters, the page to open and the tag a newer notification of the same thing replaces (a chat room's).
 */

export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/** A claimed push, with the device it goes to. */
export interface OutboxPush {
  id: number;
  subscription_id: number;
  kind: string;
  topic: string | null;
  urgency: PushUrgency;
  ttl: number;
  data: Record<string, unknown>;
  attempts: number;
  created_at: Date;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Text as a push body: one line, at most PUSH_BODY_CHARS characters (code points), an ellipsis when cut. */
export function pushBody(text: string) {
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  return chars.length > PUSH_BODY_CHARS ? `${chars.slice(0, PUSH_BODY_CHARS - 1).join("")}…` : chars.join("");
}

/** What a push says, from its row: a chat message's is made here from what its statement stored; the others' as written. */
export function pushPayloadOf(push: Pick<OutboxPush, "kind" | "data">): PushPayload {
  const data = push.data;
  if (push.kind === "chat") {
    const roomId = String(data.roomId);
    const sender = String(data.sender ?? "");
    const title = data.roomType !== "DIRECT" && data.roomName ? messages.push.groupChatTitle(String(data.roomName), sender) : messages.push.chatTitle(sender);
    const summary = messageSummary({ messageType: data.image ? "IMAGE" : "TEXT", content: String(data.text ?? ""), metadata: { caption: String(data.text ?? "") } });
    return { title, body: pushBody(summary), url: `/chat/${roomId}`, tag: `chat:${roomId}` };
  }
  return { title: String(data.title ?? ""), body: pushBody(String(data.body ?? "")), url: String(data.url ?? "/"), tag: String(data.tag ?? `push:${push.kind}`) };
}

/** A chat room's topic: its id without hyphens, 32 URL-safe characters as the `Topic` header allows. */
export const roomTopic = (roomId: string) => roomId.replaceAll("-", "");

const ttlOf = (kind: PushKind) => PUSH_TTL_SECONDS[kind];

/**
 * A notification's push, if its type is one a user can have pushed: booking events, reviews (and their tips), and
 * subscriptions. A booking's deadlines (a request waiting for acceptance, the start an hour away) go with high
 * urgency, so that a phone saving its battery still shows them at once.
 */
export function pushOfNotification({ type, mail }: { type: string; mail?: MailKind }): { kind: PushKind; urgency: PushUrgency } | null {
  if (type.startsWith("booking")) return { kind: "booking", urgency: mail === "booking_requested" || mail === "booking_reminder" ? "high" : "normal" };
  if (type === "review") return { kind: "review", urgency: "normal" };
  if (type.startsWith("subscription")) return { kind: "subscription", urgency: "normal" };
  return null;
}

export interface NotificationPush {
  userId: string;
  kind: PushKind;
  urgency: PushUrgency;
  title: string;
  body: string;
  url: string;
  tag: string;
}

/**
 * Writes a push of each notification to every device of its user who takes that kind, with `db` (the producer's
 * transaction, through recordNotifications): one INSERT … SELECT for them all, so a push exists exactly when its
 * notification does. The enqueueNotificationMails of pushes.
 */
export async function enqueueNotificationPushes(db: Database, pushes: readonly NotificationPush[]) {
  if (pushes.length === 0) return;
  const rows = JSON.stringify(
    pushes.map((push) => ({ user_id: push.userId, kind: push.kind, urgency: push.urgency, ttl: ttlOf(push.kind), title: push.title, body: pushBody(push.body), url: push.url, tag: push.tag })),
  );
  await sql`
    insert into push_outbox (subscription_id, kind, urgency, ttl, data)
    select ps.id, v.kind, v.urgency, v.ttl, jsonb_build_object('title', v.title, 'body', v.body, 'url', v.url, 'tag', v.tag)
    from jsonb_to_recordset(${rows}::jsonb) as v(user_id uuid, kind text, urgency text, ttl int, title text, body text, url text, tag text)
    join push_subscriptions ps on ps.user_id = v.user_id
    where not exists (select 1 from push_opt_outs o where o.user_id = v.user_id and o.kind = v.kind)`.execute(db);
}

/**
 * A CTE for chat-sender.server.ts' statement, after its `message`, `judged` and `members` CTEs: a push of each
 * message stored by it (a retry's replay is not: it stores nothing), typed text or an image, to every device of each
 * recipient (the members who hear of it) who takes chat pushes and whose focused tab does not show that room
 * (setFocusedRoom). In the statement that stores the message, so it is one commit with it. The room is its topic.
 * The row keeps what the push is made of, the text cut short (pushPayloadOf words it when sent).
 */
export const chatPushesCte = (): RawBuilder<unknown> => sql`, chat_push as (
      insert into push_outbox (subscription_id, kind, topic, urgency, ttl, data)
      select ps.id, 'chat', replace(m.room_id::text, '-', ''), 'high', ${sql.lit(ttlOf("chat"))},
        jsonb_build_object('roomId', m.room_id, 'roomType', r.type, 'roomName', r.name, 'sender', j.display_name,
          'image', m.message_type = 'IMAGE',
          -- An image message's content is its upload's id, never shown: its caption is what the push may quote.
          'text', left(case when m.message_type = 'IMAGE' then coalesce(m.metadata->>'caption', '') else m.content end, ${sql.lit(PUSH_BODY_CHARS * 2)}))
      from message m
      join judged j on j.sender_id = m.sender_id
      join members o on o.i = j.i and o.user_id <> m.sender_id and not o.blocked_sender
      join chat_rooms r on r.id = m.room_id
      join push_subscriptions ps on ps.user_id = o.user_id
      where m.message_type in ('TEXT', 'IMAGE')
        and not exists (select 1 from push_opt_outs x where x.user_id = o.user_id and x.kind = 'chat')
        and not exists (
          select 1 from user_presence f where f.user_id = o.user_id and f.focused_room_id = m.room_id
            and f.focused_at > now() - ${sql.lit(`${PUSH_FOCUS_WINDOW_MS / 1000} seconds`)}::interval
        )
    )`;

/**
 * Writes, in the post's transaction, a push of a new post to every device of the author's active subscribers who take
 * subscription pushes (and did not block the author). A subscriber-only post's push carries nothing of the post, its
 * text or its image: only that there is one (the lock screen is not the subscription).
 */
export async function enqueuePostPushes(
  db: Database,
  { postId, authorId, content, isPublic, hasImage }: { postId: string; authorId: string; content: string; isPublic: boolean; hasImage: boolean },
) {
  const author = await db.selectFrom("users").select("display_name").where("id", "=", authorId).executeTakeFirst();
  if (!author) return;
  const body = !isPublic ? messages.push.subscribersOnlyPost : content.trim() ? pushBody(content) : hasImage ? messages.push.postImage : "";
  const data: PushPayload = { title: messages.push.postTitle(author.display_name), body, url: `/u/${authorId}/posts`, tag: `post:${postId}` };
  await sql`
    insert into push_outbox (subscription_id, kind, urgency, ttl, data)
    select ps.id, 'subscription', 'normal', ${ttlOf("subscription")}, ${JSON.stringify(data)}::jsonb
    from subscriptions s
    join push_subscriptions ps on ps.user_id = s.subscriber_id
    where s.subscribee_id = ${authorId} and s.expires_at > now()
      and not exists (select 1 from push_opt_outs o where o.user_id = s.subscriber_id and o.kind = 'subscription')
      and not exists (select 1 from user_blocks b where b.blocker_id = s.subscriber_id and b.blocked_id = ${authorId})`.execute(db);
}

/** How long a push waits after its `attempts`-th failure (or what the push service asked for, if longer). */
export function pushRetryDelayMs(attempts: number, retryAfterMs = 0) {
  return Math.max(retryAfterMs, Math.min(PUSH_RETRY.maxMs, PUSH_RETRY.baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 20))));
}

/** Due by the caller's clock (which tests move) or the database's, whichever is later (as for mail). */
const dueAt = (now: Date) => sql<Date>`greatest(${now}::timestamptz, now())`;

/**
 * Drops the waiting pushes that a newer one of the same topic for the same device replaces (a burst of a chat room's
 * messages: the last says it). One claimed by a process meanwhile is left to it.
 */
export async function collapseSupersededPushes({ db, now }: { db: Database; now: Date }) {
  const result = await sql`
    delete from push_outbox o
    where o.topic is not null and o.failed_at is null and (o.locked_until is null or o.locked_until <= ${now})
      and exists (
        select 1 from push_outbox n
        where n.subscription_id = o.subscription_id and n.topic = o.topic and n.id > o.id and n.failed_at is null
      )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Claims up to `limit` pushes due at `now` that no live claim holds, with their devices (any number of processes at once). */
export async function claimDuePushes({ db, now, limit = PUSH_BATCH }: { db: Database; now: Date; limit?: number }) {
  const { rows } = await sql<OutboxPush>`
    update push_outbox o set locked_until = ${new Date(now.getTime() + PUSH_CLAIM_MS)}, attempts = o.attempts + 1
    from push_subscriptions ps
    where ps.id = o.subscription_id and o.id in (
      select id from push_outbox
      where failed_at is null and next_attempt_at <= ${dueAt(now)} and (locked_until is null or locked_until <= ${now})
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked
    )
    returning o.id, o.subscription_id, o.kind, o.topic, o.urgency, o.ttl, o.data, o.attempts, o.created_at, ps.endpoint, ps.p256dh, ps.auth`.execute(db);
  return rows;
}

/** A claimed push handed back untried: due again at once, its try not counted. */
export async function releasePush({ db, push }: { db: Database; push: OutboxPush }) {
  await db
    .updateTable("push_outbox")
    .set((eb) => ({ locked_until: null, attempts: eb("attempts", "-", 1) }))
    .where("id", "=", push.id)
    .execute();
}

/** The push service took it: the row goes, and the device's last success is now. One statement. */
export async function markPushSent({ db, id, now }: { db: Database; id: number; now: Date }) {
  await sql`
    with done as (delete from push_outbox where id = ${id} returning subscription_id)
    update push_subscriptions set last_success_at = ${now} where id in (select subscription_id from done)`.execute(db);
}

/** The push service no longer knows the device (404/410): it goes, with every push waiting for it. */
export async function forgetPushDevice({ db, subscriptionId }: { db: Database; subscriptionId: number }) {
  await db.deleteFrom("push_subscriptions").where("id", "=", subscriptionId).execute();
}

/** The push could not be sent: tried again later (`retry`), or given up (the last try, or refused for good). */
export async function markPushFailed({
  db,
  push,
  error,
  now,
  retry,
  retryAfterMs,
}: {
  db: Database;
  push: OutboxPush;
  error: string;
  now: Date;
  retry: boolean;
  retryAfterMs?: number;
}) {
  const giveUp = !retry || push.attempts >= PUSH_RETRY.maxAttempts;
  await db
    .updateTable("push_outbox")
    .set({
      locked_until: null,
      last_error: error.slice(0, 1000),
      ...(giveUp ? { failed_at: now } : { next_attempt_at: new Date(now.getTime() + pushRetryDelayMs(push.attempts, retryAfterMs)) }),
    })
    .where("id", "=", push.id)
    .execute();
  return giveUp;
}

/** Pushes given up on longer ago than PUSH_FAILED_KEPT_MS are deleted (the sweeper). */
export async function deleteOldFailedPushes({ db, now }: { db: Database; now: Date }) {
  const result = await db.deleteFrom("push_outbox").where("failed_at", "<", new Date(now.getTime() - PUSH_FAILED_KEPT_MS)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** What sending one push came to, as the push client says it (app/infra/push.ts). */
export type PushSendResult =
  | { outcome: "sent" }
  | { outcome: "gone" }
  | { outcome: "retry"; error: string; retryAfterMs?: number }
  | { outcome: "refused"; error: string };

/**
 * Sends every push due at `now`, batch by batch, `concurrency` at a time (each to its own device), with `send`; answers
 * how many the push services took. Nothing here runs inside a transaction. A push handed over whose deletion could
 * not be written (the database went away in between) is kept in `unmarked`, which the caller keeps across passes,
 * and deleted first thing next time, so that it is not claimed and sent again once its claim has run out.
 */
export async function deliverDuePushes({
  db,
  now,
  send,
  onFailure,
  unmarked,
  concurrency = 4,
}: {
  db: Database;
  now: () => Date;
  send: (push: OutboxPush) => Promise<PushSendResult>;
  onFailure?: (push: OutboxPush, result: Exclude<PushSendResult, { outcome: "sent" }>, gaveUp: boolean) => void;
  unmarked?: Map<number, Date>;
  concurrency?: number;
}) {
  let sent = 0;
  if (unmarked) {
    for (const [id, at] of unmarked) {
      await markPushSent({ db, id, now: at });
      unmarked.delete(id);
    }
  }
  for (;;) {
    await collapseSupersededPushes({ db, now: now() });
    const claimedAt = now();
    const batch = await claimDuePushes({ db, now: claimedAt });
    if (batch.length === 0) return sent;
    // A push is sent only while its claim will outlast the request (a slow push service could otherwise keep the last
    // of a batch waiting until another process may claim it too): the rest are handed back untried.
    const sendBy = claimedAt.getTime() + PUSH_CLAIM_MS - PUSH_TIMEOUT_MS - 5_000;
    let failure: unknown;
    const one = async (push: OutboxPush) => {
      if (now().getTime() > sendBy) {
        await releasePush({ db, push }).catch((error: unknown) => (failure ??= error));
        return;
      }
      const result = await send(push).catch((error: unknown): PushSendResult => ({ outcome: "retry", error: error instanceof Error ? error.message : String(error) }));
      if (result.outcome === "sent") {
        const at = now();
        try {
          await markPushSent({ db, id: push.id, now: at });
          sent += 1;
        } catch (error) {
          unmarked?.set(push.id, at);
          failure ??= error;
        }
        return;
      }
      try {
        if (result.outcome === "gone") {
          await forgetPushDevice({ db, subscriptionId: push.subscription_id });
          onFailure?.(push, result, true);
          return;
        }
        const gaveUp = await markPushFailed({
          db,
          push,
          error: result.error,
          now: now(),
          retry: result.outcome === "retry",
          retryAfterMs: result.outcome === "retry" ? result.retryAfterMs : undefined,
        });
        onFailure?.(push, result, gaveUp);
      } catch (error) {
        failure ??= error;
      }
    };
    const queue = [...batch];
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let push = queue.shift(); push; push = queue.shift()) await one(push);
    }));
    if (failure) throw failure;
  }
}
