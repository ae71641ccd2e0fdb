import { sql } from "kysely";
import type { ChatMessageMetadata, ChatMessageType, ChatRoomType, Database } from "~/infra/db/schema";
import type { Realtime } from "~/infra/realtime";
import { CHAT_MESSAGES_PAGE_SIZE } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { RealtimeEvent } from "~/lib/realtime-events";
import { chatStartedNotification, publishNotifications, recordNotifications } from "./notification.server";
import { onlineFor } from "./presence.server";

/** The shapes of SPEC §3. */
export interface ChatMessage {
  id: number;
  content: string;
  messageType: ChatMessageType;
  metadata: ChatMessageMetadata | null;
  chatRoomId: string;
  sender: { uid: string; supabaseId: string; displayName: string; avatar: string | null };
  createdAt: string;
  /** Hidden by the operators (PRODUCT §10): only its sender is shown it, marked 「運営により非表示」. Read from history. */
  hidden?: boolean;
  /** The id the sender's app made for it (issue 38): its tab tells the message it is still sending by it. */
  clientId?: string;
}

export interface ChatParticipant {
  uid: string;
  displayName: string;
  avatar: string | null;
  /** As the viewer sees it (PRODUCT §7): the green dot. */
  online: boolean;
}

export interface ChatRoom {
  id: string;
  type: ChatRoomType;
  name: string | null;
  participantIds: string[];
  participants: ChatParticipant[];
  unreadCount: number;
  lastMessage: ChatMessage | null;
  lastActivityAt: string;
}

/** A chat rule was broken; the route answers its status with its Japanese message. */
export class ChatError extends DomainError<403 | 404 | 422 | 429, string> {}

const directKey = (a: string, b: string) => [a, b].sort().join(":");

/** Messages with their senders' names, as every reader and the sender's answer show them. */
export function messagesQuery(db: Database) {
  return db
    .selectFrom("chat_messages as m")
    .innerJoin("users as u", "u.id", "m.sender_id")
    .select(["m.id", "m.content", "m.message_type", "m.metadata", "m.room_id", "m.created_at", "m.client_id", "u.id as sender_id", "u.display_name", "u.avatar_url"]);
}

export type MessageRow = Awaited<ReturnType<ReturnType<typeof messagesQuery>["executeTakeFirstOrThrow"]>>;

export function toMessage(row: MessageRow & { hidden_at?: Date | null }): ChatMessage {
  return {
    id: row.id,
    content: row.content,
    messageType: row.message_type,
    metadata: row.metadata,
    chatRoomId: row.room_id,
    sender: { uid: row.sender_id, supabaseId: row.sender_id, displayName: row.display_name, avatar: row.avatar_url },
    createdAt: row.created_at.toISOString(),
    hidden: row.hidden_at != null,
    ...(row.client_id ? { clientId: row.client_id } : {}),
  };
}

/** Messages (aliased `m`) the operators hid are their sender's alone (PRODUCT §10). */
const visibleTo = (readerId: string) => sql<boolean>`(m.hidden_at is null or m.sender_id = ${readerId})`;

/** Answers whether the user takes part in the room. Everything else about a room is for participants only. */
async function isParticipant(db: Database, roomId: string, userId: string) {
  const row = await db
    .selectFrom("chat_participants")
    .select("user_id")
    .where("room_id", "=", roomId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return !!row;
}

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

/** Messages (aliased `m`) from people the reader blocked are not theirs to see. */
const notFromBlocked = (readerId: string, alias = "m") =>
  sql<boolean>`not exists (select 1 from user_blocks b where b.blocker_id = ${readerId} and b.blocked_id = ${sql.ref(`${alias}.sender_id`)})`;

export async function getRoom({ db, userId, roomId }: { db: Database; userId: string; roomId: string }) {
  if (!(await isParticipant(db, roomId, userId))) throw new ChatError(404, "room_not_found");
  const room = await db.selectFrom("chat_rooms").select(["id", "type", "name"]).where("id", "=", roomId).executeTakeFirstOrThrow();
  const participants = await db
    .selectFrom("chat_participants as p")
    .innerJoin("users as u", "u.id", "p.user_id")
    .select(["u.id", "u.display_name", "u.avatar_url", onlineFor(userId).as("online")])
    .where("p.room_id", "=", roomId)
    .orderBy("p.joined_at")
    .execute();
  return {
    ...room,
    participants: participants.map((p): ChatParticipant => ({ uid: p.id, displayName: p.display_name, avatar: p.avatar_url, online: p.online })),
  };
}

/**
 * The ids of a room's newest messages the reader may see (below `before`), newest first, `limit` of each kind: those
 * nobody hid (from nobody the reader blocked, unless `blocked` is "included"), and the reader's own hidden ones. Each
 * half reads its own partial index backwards (migration 0019): a filter on `hidden_at` over the (room_id, id) index
 * made PostgreSQL scan every room's messages from the newest instead, 2M rows for one page of an old busy room.
 */
function newestVisibleIds({
  roomId,
  readerId,
  limit,
  before,
  blocked = "excluded",
}: {
  roomId: string;
  readerId: string;
  limit: number;
  before?: number;
  blocked?: "excluded" | "included";
}) {
  const below = (alias: string) => (before === undefined ? sql`` : sql`and ${sql.ref(`${alias}.id`)} < ${before}`);
  const notBlocked = blocked === "excluded" ? sql`and ${notFromBlocked(readerId, "v")}` : sql``;
  return sql<number>`(
    (select v.id from chat_messages v where v.room_id = ${roomId} and v.hidden_at is null ${below("v")} ${notBlocked} order by v.id desc limit ${limit})
    union all
    (select o.id from chat_messages o where o.room_id = ${roomId} and o.hidden_at is not null and o.sender_id = ${readerId} ${below("o")}
      order by o.id desc limit ${limit})
  )`;
}

/**
 * A page of a room's messages (SPEC §7): the 30 before the `before` cursor (the id of the oldest
 * message already held), in chronological order, and whether older ones exist.
 */
export async function listMessages({ db, userId, roomId, before }: { db: Database; userId: string; roomId: string; before?: number }) {
  if (!(await isParticipant(db, roomId, userId))) throw new ChatError(404, "room_not_found");
  const rows = await messagesQuery(db)
    .select("m.hidden_at")
    .where(sql<boolean>`m.id in ${newestVisibleIds({ roomId, readerId: userId, limit: CHAT_MESSAGES_PAGE_SIZE + 1, before })}`)
    .orderBy("m.id", "desc")
    .limit(CHAT_MESSAGES_PAGE_SIZE + 1)
    .execute();
  const hasMore = rows.length > CHAT_MESSAGES_PAGE_SIZE;
  return { messages: rows.slice(0, CHAT_MESSAGES_PAGE_SIZE).reverse().map(toMessage), hasMore };
}

/**
 * Marks everything in the room read for the user: the newest message id they can see (one hidden from them and
 * restored later is still unread then).
 */
export async function markRead({ db, userId, roomId }: { db: Database; userId: string; roomId: string }) {
  const result = await db
    .updateTable("chat_participants")
    .set({
      last_read_message_id: sql<number>`coalesce((select max(x.id) from ${newestVisibleIds({ roomId, readerId: userId, limit: 1, blocked: "included" })} as x(id)), 0)`,
    })
    .where("room_id", "=", roomId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new ChatError(404, "room_not_found");
}

/** Unread messages over all the user's rooms. */
export async function countUnread({ db, userId }: { db: Database; userId: string }) {
  const row = await db
    .selectFrom("chat_participants as me")
    .innerJoin("chat_messages as m", "m.room_id", "me.room_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("me.user_id", "=", userId)
    .whereRef("m.id", ">", "me.last_read_message_id")
    .where("m.sender_id", "<>", userId)
    .where("m.hidden_at", "is", null)
    .where(notFromBlocked(userId))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Creates a room, or for DIRECT finds the one the pair already has (SPEC §7: isNew false).
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

export async function blockUser({ db, blockerId, blockedId }: { db: Database; blockerId: string; blockedId: string }) {
  if (blockerId === blockedId) throw new ChatError(422, "self_block");
  const exists = await db.selectFrom("users").select("id").where("id", "=", blockedId).executeTakeFirst();
  if (!exists) throw new ChatError(404, "user_not_found");
  await db
    .insertInto("user_blocks")
    .values({ blocker_id: blockerId, blocked_id: blockedId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Whether the viewer blocked the other person, and whether the other person blocked the viewer. */
export async function blockStatus({ db, viewerId, otherId }: { db: Database; viewerId: string; otherId: string }) {
  const rows = await db
    .selectFrom("user_blocks")
    .select("blocker_id")
    .where((eb) =>
      eb.or([
        eb.and([eb("blocker_id", "=", viewerId), eb("blocked_id", "=", otherId)]),
        eb.and([eb("blocker_id", "=", otherId), eb("blocked_id", "=", viewerId)]),
      ]),
    )
    .execute();
  return { byViewer: rows.some((row) => row.blocker_id === viewerId), ofViewer: rows.some((row) => row.blocker_id === otherId) };
}

export async function unblockUser({ db, blockerId, blockedId }: { db: Database; blockerId: string; blockedId: string }) {
  await db.deleteFrom("user_blocks").where("blocker_id", "=", blockerId).where("blocked_id", "=", blockedId).execute();
}

/** A message the app posted inside someone's transaction, to announce once it commits. */
export interface PostedMessage {
  message: ChatMessage;
  userIds: string[];
  /** The room was made for this message: the pair's sockets join its channel. */
  newRoom: boolean;
}

/**
 * Posts a message from the app on `senderId`'s behalf in the DIRECT room of two people (a ticket bought or
 * cancelled, SPEC §4), making the room if they have none, inside the caller's transaction so the message exists
 * exactly when what it reports does. No rate limit: it is not typed by a person. Announce it with
 * `publishPosted` after the commit.
 */
export async function postDirectNotice(
  trx: Database,
  {
    senderId,
    otherId,
    content,
    messageType,
    metadata,
  }: { senderId: string; otherId: string; content: string; messageType: ChatMessageType; metadata: ChatMessageMetadata },
): Promise<PostedMessage> {
  const key = directKey(senderId, otherId);
  const created = await trx
    .insertInto("chat_rooms")
    .values({ type: "DIRECT", direct_key: key })
    .onConflict((oc) => oc.column("direct_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  const roomId = created?.id ?? (await trx.selectFrom("chat_rooms").select("id").where("direct_key", "=", key).executeTakeFirstOrThrow()).id;
  if (created) await trx.insertInto("chat_participants").values([senderId, otherId].map((userId) => ({ room_id: roomId, user_id: userId }))).execute();
  const inserted = await trx
    .insertInto("chat_messages")
    .values({ room_id: roomId, sender_id: senderId, content, message_type: messageType, metadata: JSON.stringify(metadata) })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
  await trx
    .updateTable("chat_rooms")
    .set({ last_activity_at: inserted.created_at, last_message_id: sql<number>`greatest(last_message_id, ${inserted.id})` })
    .where("id", "=", roomId)
    .execute();
  await trx.updateTable("chat_participants").set({ last_read_message_id: inserted.id }).where("room_id", "=", roomId).where("user_id", "=", senderId).execute();
  const row = await messagesQuery(trx).where("m.id", "=", inserted.id).executeTakeFirstOrThrow();
  return { message: toMessage(row), userIds: [senderId, otherId], newRoom: !!created };
}

/** Announces messages posted by `postDirectNotice` once their transaction has committed. */
export function publishPosted(realtime: Realtime, posted: readonly PostedMessage[]) {
  for (const { message, userIds, newRoom } of posted) {
    if (newRoom) realtime.joinRoom(userIds, message.chatRoomId);
    realtime.toUsers(userIds, RealtimeEvent.chatMessage, message);
  }
}
