import type { Transaction } from "kysely";
import type { DB, Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { EVENT_PARTICIPANTS_SHOWN, EVENT_REMINDER_BATCH, EVENT_REMINDER_BEFORE_MS, EVENTS_PAGE_SIZE, SWEEP_BATCH } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { messages } from "~/lib/messages";
import { formatDateTime } from "~/lib/time";
import { publishNotifications, recordNotifications, type NotificationInput, type PendingNotifications } from "./notification.server";

/**
 * Events (docs/product.md#data): an event of a game with a capacity that signed-in members join and leave until it
 * starts. Seats are counted in `events.participants_count`, moved in the same transaction as the participant row by
 * a conditional update (`… where participants_count < capacity`), so however many join at once no seat is handed out
 * twice (ADR 021). Each participant is reminded once, an hour before the start, by the sweeper.
 */

type Trx = Transaction<DB>;

export class EventError extends DomainError<403 | 404 | 409, "event_not_found" | "event_full" | "event_started" | "profile_required"> {}

export interface EventSummary {
  id: string;
  title: string;
  game: { slug: string; name: string };
  startsAt: string;
  endsAt: string;
  capacity: number;
  participantsCount: number;
  seatsLeft: number;
}

export interface EventParticipant {
  uid: string;
  displayName: string;
  avatarUrl: string | null;
  link: string;
}

export interface EventDetail extends EventSummary {
  description: string;
  /** At most EVENT_PARTICIPANTS_SHOWN, earliest first; `participantsCount` is the whole number. */
  participants: EventParticipant[];
  /** Whether the viewer (if any) has a seat. */
  joined: boolean;
  /** Whether the event has started at `now`: no more joining or leaving. */
  started: boolean;
}

const summaryColumns = ["e.id", "e.title", "e.starts_at", "e.ends_at", "e.capacity", "e.participants_count", "g.slug", "g.name"] as const;

function toSummary(row: {
  id: string;
  title: string;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  participants_count: number;
  slug: string;
  name: string;
}): EventSummary {
  return {
    id: row.id,
    title: row.title,
    game: { slug: row.slug, name: row.name },
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    capacity: row.capacity,
    participantsCount: row.participants_count,
    seatsLeft: row.capacity - row.participants_count,
  };
}

/**
 * A page of events: upcoming (not started at `now`, soonest first) or past (started, latest first), of one game
 * when `gameSlug` is given. `hasMore` says whether a next page exists.
 */
export async function listEvents({
  db,
  now,
  when,
  gameSlug,
  page = 0,
  limit = EVENTS_PAGE_SIZE,
}: {
  db: Database;
  now: Date;
  when: "upcoming" | "past";
  gameSlug?: string;
  page?: number;
  limit?: number;
}): Promise<{ events: EventSummary[]; hasMore: boolean }> {
  let query = db.selectFrom("events as e").innerJoin("games as g", "g.id", "e.game_id").select(summaryColumns);
  if (gameSlug) query = query.where("g.slug", "=", gameSlug);
  query =
    when === "upcoming"
      ? query.where("e.starts_at", ">=", now).orderBy("e.starts_at", "asc").orderBy("e.id", "asc")
      : query.where("e.starts_at", "<", now).orderBy("e.starts_at", "desc").orderBy("e.id", "desc");
  const rows = await query
    .limit(limit + 1)
    .offset(page * limit)
    .execute();
  return { events: rows.slice(0, limit).map(toSummary), hasMore: rows.length > limit };
}

/** One event with its game, seats and participants, and whether `viewerId` joined; null when there is none. */
export async function getEvent({ db, eventId, viewerId, now }: { db: Database; eventId: string; viewerId?: string | null; now: Date }): Promise<EventDetail | null> {
  const row = await db
    .selectFrom("events as e")
    .innerJoin("games as g", "g.id", "e.game_id")
    .select([...summaryColumns, "e.description"])
    .where("e.id", "=", eventId)
    .executeTakeFirst();
  if (!row) return null;
  const participants = await db
    .selectFrom("event_participants as p")
    .innerJoin("users as u", "u.id", "p.user_id")
    .select(["u.id", "u.display_name", "u.avatar_url"])
    .where("p.event_id", "=", eventId)
    .orderBy("p.joined_at")
    .orderBy("u.id")
    .limit(EVENT_PARTICIPANTS_SHOWN)
    .execute();
  const joined = viewerId
    ? !!(await db.selectFrom("event_participants").select("user_id").where("event_id", "=", eventId).where("user_id", "=", viewerId).executeTakeFirst())
    : false;
  return {
    ...toSummary(row),
    description: row.description,
    participants: participants.map((p) => ({ uid: p.id, displayName: p.display_name, avatarUrl: p.avatar_url, link: `/u/${p.id}` })),
    joined,
    started: row.starts_at.getTime() <= now.getTime(),
  };
}

/** The event as a join or leave sees it, refusing one that does not exist or has started. */
async function openEvent(trx: Trx, eventId: string, now: Date) {
  const event = await trx.selectFrom("events").select(["id", "starts_at"]).where("id", "=", eventId).executeTakeFirst();
  if (!event) throw new EventError(404, "event_not_found");
  if (event.starts_at.getTime() <= now.getTime()) throw new EventError(409, "event_started");
}

async function requireProfileRow(trx: Trx, userId: string) {
  const user = await trx.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst();
  if (!user) throw new EventError(403, "profile_required");
}

async function seatsTaken(trx: Trx, eventId: string) {
  return (await trx.selectFrom("events").select("participants_count").where("id", "=", eventId).executeTakeFirstOrThrow()).participants_count;
}

/**
 * Takes a seat for `userId`, in one transaction: the participant row (`on conflict do nothing`, so joining twice
 * changes nothing) and the count, raised only while a seat is left. No seat → 409 `event_full` and the row goes
 * with the rollback. `joined` is false when the member already had a seat.
 */
export async function joinEvent({ db, eventId, userId, now }: { db: Database; eventId: string; userId: string; now: Date }) {
  return db.transaction().execute(async (trx) => {
    await openEvent(trx, eventId, now);
    await requireProfileRow(trx, userId);
    const inserted = await trx
      .insertInto("event_participants")
      .values({ event_id: eventId, user_id: userId, joined_at: now })
      .onConflict((oc) => oc.columns(["event_id", "user_id"]).doNothing())
      .returning("user_id")
      .executeTakeFirst();
    if (!inserted) return { joined: false, participantsCount: await seatsTaken(trx, eventId) };
    const seat = await trx
      .updateTable("events")
      .set((eb) => ({ participants_count: eb("participants_count", "+", 1) }))
      .where("id", "=", eventId)
      .whereRef("participants_count", "<", "capacity")
      .returning("participants_count")
      .executeTakeFirst();
    if (!seat) throw new EventError(409, "event_full");
    return { joined: true, participantsCount: seat.participants_count };
  });
}

/** Gives up the member's seat, in one transaction; the count goes down only when a row was deleted. */
export async function leaveEvent({ db, eventId, userId, now }: { db: Database; eventId: string; userId: string; now: Date }) {
  return db.transaction().execute(async (trx) => {
    await openEvent(trx, eventId, now);
    const deleted = await trx.deleteFrom("event_participants").where("event_id", "=", eventId).where("user_id", "=", userId).returning("user_id").executeTakeFirst();
    if (!deleted) return { left: false, participantsCount: await seatsTaken(trx, eventId) };
    const seat = await trx
      .updateTable("events")
      .set((eb) => ({ participants_count: eb("participants_count", "-", 1) }))
      .where("id", "=", eventId)
      .returning("participants_count")
      .executeTakeFirstOrThrow();
    return { left: true, participantsCount: seat.participants_count };
  });
}

/**
 * The sweeper's reminder: participants of events starting within the hour (and not started) who were not reminded
 * yet get a notification, once. Rows are claimed `FOR UPDATE SKIP LOCKED` a small batch at a time, marked and
 * notified in the same transaction, so racing sweepers never remind anyone twice; announced after the commit.
 */
export const eventReminderJob = {
  name: "event reminder",
  async run({ db, realtime, now }: { db: Database; realtime: Realtime; now: Date }) {
    let done = 0;
    while (done < SWEEP_BATCH * EVENT_REMINDER_BATCH) {
      const pending: PendingNotifications | null = await db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom("event_participants as p")
          .innerJoin("events as e", "e.id", "p.event_id")
          .select(["p.event_id", "p.user_id", "e.title", "e.starts_at"])
          .where("p.reminded_at", "is", null)
          .where("e.starts_at", ">", now)
          .where("e.starts_at", "<=", new Date(now.getTime() + EVENT_REMINDER_BEFORE_MS))
          .orderBy("e.starts_at")
          .orderBy("p.event_id")
          .orderBy("p.user_id")
          .limit(EVENT_REMINDER_BATCH)
          .forUpdate("p")
          .skipLocked()
          .execute();
        if (due.length === 0) return null;
        for (const row of due) {
          await trx
            .updateTable("event_participants")
            .set({ reminded_at: now })
            .where("event_id", "=", row.event_id)
            .where("user_id", "=", row.user_id)
            .execute();
        }
        const reminders: NotificationInput[] = due.map((row) => ({
          userId: row.user_id,
          type: "event_reminder",
          title: messages.events.reminderTitle(row.title),
          body: messages.events.reminderBody(formatDateTime(row.starts_at)),
          link: `/events/${row.event_id}`,
        }));
        const recorded = await recordNotifications(trx, reminders);
        done += due.length;
        return recorded;
      });
      if (!pending) break;
      publishNotifications(realtime, pending);
    }
    return done;
  },
};
