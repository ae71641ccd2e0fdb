import { sql, type Selectable } from "kysely";
import type { Database, NotificationsTable } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import type { MailKind } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { RealtimeEvent } from "~/lib/realtime-events";
import { enqueueNotificationMails } from "./mail-preferences.server";
import { enqueueNotificationPushes, pushOfNotification } from "./push-outbox.server";

/**
 * What a notification is about. Later features add theirs (bookings, reviews, coins, subscriptions);
 * the type only picks an icon, so the column stays free text.
 */
export type NotificationType = "welcome" | "chat_room" | (string & {});

export interface NotificationInput {
  userId: string;
  type: NotificationType;
  title: string;
  body?: string;
  /** A path inside the app ("/chat/…"): what the notification is about. */
  link?: string | null;
  /** Also sent by mail, as this kind, when the user is away and takes it (docs/product.md#accounts, mail-preferences.server.ts). */
  mail?: MailKind;
}

/** A notification as the API and `notification:new` carry it. */
export interface Notification {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  link: string | null;
  isRead: boolean;
  readAt: string | null;
  createdAt: string;
}

const columns = ["id", "user_id", "type", "title", "body", "link", "read_at", "created_at"] as const;

function toNotification(row: Selectable<NotificationsTable>): Notification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    link: row.link,
    isRead: row.read_at !== null,
    readAt: row.read_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

/** What a new member reads first: sent when their profile is first set up. */
export const welcomeNotification = (userId: string): NotificationInput => ({
  userId,
  type: "welcome",
  title: messages.notifications.welcomeTitle,
  body: messages.notifications.welcomeBody,
  link: "/",
});

/** Someone opened a new DIRECT chat with the user. */
export const chatStartedNotification = ({ userId, byName, roomId }: { userId: string; byName: string; roomId: string }): NotificationInput => ({
  userId,
  type: "chat_room",
  title: messages.notifications.chatStartedTitle(byName),
  body: messages.notifications.chatStartedBody,
  link: `/chat/${roomId}`,
});

/** Notifications stored but not yet announced: pass them to `publishNotifications` once the transaction commits. */
export type PendingNotifications = Array<{ userId: string; notification: Notification }>;

/**
 * Stores notifications with `db`, which may be the producer's own transaction, so that a notification exists
 * exactly when what it is about does, and the mails of those that carry a mail kind with them, and the pushes of
 * those a user can have pushed. Announce them with
 * `publishNotifications` after the commit.
 */
export async function recordNotifications(db: Database, inputs: readonly NotificationInput[]): Promise<PendingNotifications> {
  if (inputs.length === 0) return [];
  const rows = await db
    .insertInto("notifications")
    .values(
      inputs.map((input) => ({
        user_id: input.userId,
        type: input.type,
        title: input.title,
        body: input.body ?? "",
        link: input.link ?? null,
      })),
    )
    .returning(columns)
    .execute();
  await enqueueNotificationMails(
    db,
    inputs.flatMap((input) => (input.mail ? [{ userId: input.userId, kind: input.mail, title: input.title, body: input.body ?? "", link: input.link ?? null }] : [])),
  );
  // And its push to the user's devices, for the kinds a user can have pushed (push-outbox.server.ts). The rows come
  // back in the order of the values.
  await enqueueNotificationPushes(
    db,
    rows.flatMap((row, i) => {
      const push = pushOfNotification({ type: row.type, mail: inputs[i]?.mail });
      return push ? [{ userId: row.user_id, ...push, title: row.title, body: row.body, url: row.link ?? "/notifications", tag: `notification:${row.id}` }] : [];
    }),
  );
  return rows.map((row) => ({ userId: row.user_id, notification: toNotification(row) }));
}

/** Sends each stored notification to its user's sockets as `notification:new` (a hint: the list is the truth). */
export function publishNotifications(realtime: Realtime, pending: PendingNotifications) {
  for (const { userId, notification } of pending) realtime.toUsers([userId], RealtimeEvent.notificationNew, notification);
}

/** Stores notifications and announces them: the one call for producers that have no transaction of their own. */
export async function notify({ db, realtime }: { db: Database; realtime: Realtime }, ...inputs: NotificationInput[]) {
  const pending = await recordNotifications(db, inputs);
  publishNotifications(realtime, pending);
  return pending.map(({ notification }) => notification);
}

export async function countUnreadNotifications({ db, userId }: { db: Database; userId: string }) {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of the user's notifications, newest first, or unread first and then newest (docs/product.md#api). */
export async function listNotifications({
  db,
  userId,
  limit,
  offset,
  prioritizeUnread = false,
}: {
  db: Database;
  userId: string;
  limit: number;
  offset: number;
  prioritizeUnread?: boolean;
}) {
  let query = db.selectFrom("notifications").select(columns).where("user_id", "=", userId);
  if (prioritizeUnread) query = query.orderBy(sql`read_at is null`, "desc");
  const [rows, unreadCount] = await Promise.all([
    query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    countUnreadNotifications({ db, userId }),
  ]);
  return { notifications: rows.map(toNotification), unreadCount };
}

/** Marks every unread notification of the user read; answers how many changed. */
export async function markAllNotificationsRead({ db, userId }: { db: Database; userId: string }) {
  const result = await db
    .updateTable("notifications")
    .set({ read_at: sql<Date>`now()` })
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
