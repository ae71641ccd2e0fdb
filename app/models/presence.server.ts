import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { ONLINE_WINDOW_MS, PRESENCE_KEPT_MS } from "~/lib/constants";
import { RealtimeEvent } from "~/lib/realtime-events";

/**
 * Presence (docs/product.md#realtime): a user is online while their last sign of life (`user_presence.last_seen_at`) is younger than
 * two minutes. A heartbeat sets it, and so does each server process for the users whose sockets it holds (on connect,
 * every 30 s and on disconnect). `user_presence` keeps only the last hour (migration 0026: a narrow table, so that a
 * heartbeat for thousands of users writes a few pages); no row means not seen. `users.online_announced` is what
 * `presence` events last said: flipping it is an atomic row update, so however many processes run, each change is
 * announced once.
 */

/** SQL: the database's now less `ms` (a timestamp, for the clock the rows were written on). */
export const ago = (ms: number) => sql<Date>`now() - ${sql.lit(`${ms / 1000} seconds`)}::interval`;

/** SQL: the user whose id is at `userId` was seen after `since` (a timestamp expression). */
export const seenSince = (userId: string, since: RawBuilder<unknown> | Date) =>
  sql<SqlBool>`exists (select 1 from user_presence p where p.user_id = ${sql.ref(userId)} and p.last_seen_at > ${since})`;

/** SQL: the user whose id is at `userId` was seen within the online window. */
const seenRecently = (userId: string) => seenSince(userId, ago(ONLINE_WINDOW_MS));

/** No one: the viewer of a signed-out request, where SQL needs a user id. */
export const NOBODY = "00000000-0000-0000-0000-000000000000";

/**
 * SQL for a query over `users as u`: whether the viewer sees that user online. Someone who blocked the
 * viewer never shows as online to them.
 */
export const onlineFor = (viewerId: string | null) =>
  sql<boolean>`(${seenRecently("u.id")} and not exists (select 1 from user_blocks b where b.blocker_id = u.id and b.blocked_id = ${viewerId ?? NOBODY}))`;

/** Marks the users as seen now; announces those who were not online. */
export async function markSeen({ db, realtime, userIds }: { db: Database; realtime: Realtime; userIds: readonly string[] }) {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  // Those with a profile (an account signed in before it has one has no `users` row yet), in one order, so that two
  // processes marking overlapping users never wait on each other in a circle.
  await db
    .insertInto("user_presence")
    .columns(["user_id", "last_seen_at"])
    .expression(db.selectFrom("users").select(["id", sql<Date>`now()`.as("last_seen_at")]).where("id", "in", ids).orderBy("id"))
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ last_seen_at: sql<Date>`excluded.last_seen_at` }))
    .execute();
  const cameOnline = await db
    .updateTable("users")
    .set({ online_announced: true })
    .where("id", "in", ids)
    .where("online_announced", "=", false)
    .returning("id")
    .execute();
  await announce({ db, realtime, userIds: cameOnline.map((row) => row.id), online: true });
  return cameOnline.map((row) => row.id);
}

/**
 * Announces everyone whose last sign of life is older than the online window; answers who went offline. Then forgets
 * the signs of life older than PRESENCE_KEPT_MS, which no reader looks at.
 */
export async function announceOffline({ db, realtime }: { db: Database; realtime: Realtime }) {
  const wentOffline = await db
    .updateTable("users")
    .set({ online_announced: false })
    .where("online_announced", "=", true)
    .where((eb) => eb.not(seenRecently("users.id")))
    .returning("id")
    .execute();
  await db
    .deleteFrom("user_presence")
    .where("last_seen_at", "<", ago(PRESENCE_KEPT_MS))
    .execute();
  await announce({ db, realtime, userIds: wentOffline.map((row) => row.id), online: false });
  return wentOffline.map((row) => row.id);
}

/** Sends `presence` about each user to the people who share a chat room with them (and have not been blocked by them). */
async function announce({ db, realtime, userIds, online }: { db: Database; realtime: Realtime; userIds: string[]; online: boolean }) {
  if (userIds.length === 0) return;
  const pairs = await db
    .selectFrom("chat_participants as subject")
    .innerJoin("chat_participants as watcher", "watcher.room_id", "subject.room_id")
    .select(["subject.user_id as subject_id", "watcher.user_id as watcher_id"])
    .distinct()
    .where("subject.user_id", "in", userIds)
    .whereRef("watcher.user_id", "<>", "subject.user_id")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("user_blocks as b")
            .select("b.blocker_id")
            .whereRef("b.blocker_id", "=", "subject.user_id")
            .whereRef("b.blocked_id", "=", "watcher.user_id"),
        ),
      ),
    )
    .execute();
  const watchers = new Map<string, string[]>();
  for (const { subject_id, watcher_id } of pairs) watchers.set(subject_id, [...(watchers.get(subject_id) ?? []), watcher_id]);
  for (const userId of userIds) {
    const to = watchers.get(userId);
    if (to) realtime.toUsers(to, RealtimeEvent.presence, { userId, online });
  }
}

/** Answers which of these users the viewer sees online. */
export async function onlineUserIds({ db, viewerId, userIds }: { db: Database; viewerId: string | null; userIds: readonly string[] }) {
  if (userIds.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom("users as u")
    .select("u.id")
    .where("u.id", "in", [...new Set(userIds)])
    .where(onlineFor(viewerId))
    .execute();
  return new Set(rows.map((row) => row.id));
}
