import type { ChatRoomType, Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { ChatError, directKey, messagesQuery, notFromBlocked, toMessage, visibleTo, type ChatRoom } from "./chat.server";
import { chatStartedNotification, publishNotifications, recordNotifications } from "./notification.server";
import { onlineFor } from "./presence.server";

/** Chat rooms: which ones a user is in, the list with unread counts and last messages, and making one. */

/** The ids of the user's rooms (the socket joins their channels). */
export async function listRoomIds({ db, userId }: { db: Database; userId: string }) {
  const rows = await db.selectFrom("chat_participants").select("room_id").where("user_id", "=", userId).execute();
  return rows.map((row) => row.room_id);
}

/** The user's rooms, newest activity first, each with its unread count and last message. */
export async function listRooms({
  db,
  userId,
  limit,
  offset,
  roomId,
}: {
  db: Database;
  userId: string;
  limit: number;
  offset: number;
  /** Just this room (when the user is in it). */
  roomId?: string;
}) {
  const rooms = await db
    .selectFrom("chat_participants as me")
    .innerJoin("chat_rooms as r", "r.id", "me.room_id")
    .select([
      "r.id",
      "r.type",
      "r.name",
      "r.last_activity_at",
      (eb) =>
        eb
          .selectFrom("chat_messages as m")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("m.room_id", "=", "r.id")
          .whereRef("m.id", ">", "me.last_read_message_id")
          .where("m.sender_id", "<>", userId)
          .where("m.hidden_at", "is", null)
          .where(notFromBlocked(userId))
          .as("unread_count"),
    ])
    .where("me.user_id", "=", userId)
    .$if(roomId !== undefined, (qb) => qb.where("r.id", "=", roomId!))
    .orderBy("r.last_activity_at", "desc")
    .orderBy("r.id")
    .limit(limit)
    .offset(offset)
    .execute();
  if (rooms.length === 0) return [];
  const ids = rooms.map((room) => room.id);
  const [participants, lastMessages] = await Promise.all([
    db
      .selectFrom("chat_participants as p")
      .innerJoin("users as u", "u.id", "p.user_id")
      .select(["p.room_id", "p.user_id", "u.display_name", "u.avatar_url", onlineFor(userId).as("online")])
      .where("p.room_id", "in", ids)
      .orderBy("p.joined_at")
      .execute(),
    // Each room's newest message the user may see (a hidden one is its sender's preview only): read backwards from
    // the (room_id, id) index, stopping at the first visible one.
    messagesQuery(db)
      .select("m.hidden_at")
      .where("m.id", "in", (eb) =>
        eb
          .selectFrom("chat_rooms as r")
          .select((inner) =>
            inner.selectFrom("chat_messages as m").select("m.id").whereRef("m.room_id", "=", "r.id").where(visibleTo(userId)).orderBy("m.id", "desc").limit(1).as("id"),
          )
          .where("r.id", "in", ids),
      )
      .execute(),
  ]);
  const lastByRoom = new Map(lastMessages.map((row) => [row.room_id, toMessage(row)]));
  return rooms.map((room): ChatRoom => {
    const members = participants.filter((p) => p.room_id === room.id);
    return {
      id: room.id,
      type: room.type,
      name: room.name,
      participantIds: members.map((p) => p.user_id),
      participants: members.map((p) => ({ uid: p.user_id, displayName: p.display_name, avatar: p.avatar_url, online: p.online })),
      unreadCount: Number(room.unread_count ?? 0),
      lastMessage: lastByRoom.get(room.id) ?? null,
      lastActivityAt: room.last_activity_at.toISOString(),
    };
  });
}

/**
 * Creates a room, or for DIRECT finds the one the pair already has (docs/product.md#api: isNew false).
 * New participants' sockets join its channel at once.
 */
export async function createRoom({
  db,
  realtime,
  creatorId,
  participantIds,
  type,
  name,
}: {
  db: Database;
  realtime: Realtime;
  creatorId: string;
  participantIds: string[];
  type: ChatRoomType;
  name: string | null;
}) {
  const members = [...new Set([creatorId, ...participantIds])];
  if (members.length < 2) throw new ChatError(422, "self_chat");
  if (type === "DIRECT" && members.length !== 2) throw new ChatError(422, "direct_needs_two");
  // An account that left (退会) is nobody to start a chat with; its rooms and messages stay as they were.
  const known = await db.selectFrom("users").select(["id", "display_name"]).where("id", "in", members).where("deleted_at", "is", null).execute();
  if (known.length !== members.length) throw new ChatError(404, "user_not_found");
  const other = members.find((id) => id !== creatorId)!;
  if (type === "DIRECT") {
    const blocked = await db
      .selectFrom("user_blocks")
      .select("blocker_id")
      .where("blocker_id", "=", other)
      .where("blocked_id", "=", creatorId)
      .executeTakeFirst();
    if (blocked) throw new ChatError(403, "blocked");
  }

  const { roomId, isNew, pending } = await db.transaction().execute(async (trx) => {
    const key = type === "DIRECT" ? directKey(creatorId, other) : null;
    const created = await trx
      .insertInto("chat_rooms")
      .values({ type, name, direct_key: key })
      .onConflict((oc) => oc.column("direct_key").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!created) {
      const existing = await trx.selectFrom("chat_rooms").select("id").where("direct_key", "=", key).executeTakeFirstOrThrow();
      return { roomId: existing.id, isNew: false, pending: [] };
    }
    await trx
      .insertInto("chat_participants")
      .values(members.map((userId) => ({ room_id: created.id, user_id: userId })))
      .execute();
    // Someone opening a DIRECT chat with you is news; the creator knows already.
    const creatorName = known.find((user) => user.id === creatorId)!.display_name;
    const pending =
      type === "DIRECT" ? await recordNotifications(trx, [chatStartedNotification({ userId: other, byName: creatorName, roomId: created.id })]) : [];
    return { roomId: created.id, isNew: true, pending };
  });
  if (isNew) realtime.joinRoom(members, roomId);
  publishNotifications(realtime, pending);
  const [chatRoom] = await listRooms({ db, userId: creatorId, limit: 1, offset: 0, roomId });
  return { chatRoom: chatRoom!, isNew };
}
