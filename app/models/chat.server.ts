import { sql } from "kysely";
import type { ChatMessageMetadata, ChatMessageType, ChatRoomType, Database } from "../../server/db/schema";
import type { Realtime } from "../../server/realtime";
import { CHAT_MESSAGES_PAGE_SIZE, CHAT_RATE_LIMIT } from "~/lib/constants";
import { RealtimeEvent } from "~/lib/realtime-events";
import { chatStartedNotification, publishNotifications, recordNotifications } from "./notification.server";
import { onlineFor } from "./presence.server";
import { rateLimitWindowCte } from "./rate-limit.server";

/** The shapes of SPEC §3. */
export interface ChatMessage {
  id: number;
  content: string;
  messageType: ChatMessageType;
  metadata: ChatMessageMetadata | null;
  chatRoomId: string;
  sender: { uid: string; supabaseId: string; displayName: string; avatar: string | null };
  createdAt: string;
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
export class ChatError extends Error {
  constructor(
    readonly status: 403 | 404 | 422 | 429,
    readonly code: string,
  ) {
    super(code);
  }
}

const directKey = (a: string, b: string) => [a, b].sort().join(":");

function messagesQuery(db: Database) {
  return db
    .selectFrom("chat_messages as m")
    .innerJoin("users as u", "u.id", "m.sender_id")
    .select(["m.id", "m.content", "m.message_type", "m.metadata", "m.room_id", "m.created_at", "u.id as sender_id", "u.display_name", "u.avatar_url"]);
}

type MessageRow = Awaited<ReturnType<ReturnType<typeof messagesQuery>["executeTakeFirstOrThrow"]>>;

function toMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    content: row.content,
    messageType: row.message_type,
    metadata: row.metadata,
    chatRoomId: row.room_id,
    sender: { uid: row.sender_id, supabaseId: row.sender_id, displayName: row.display_name, avatar: row.avatar_url },
    createdAt: row.created_at.toISOString(),
  };
}

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
    messagesQuery(db)
      .where("m.id", "in", (eb) => eb.selectFrom("chat_messages").select((inner) => inner.fn.max<number>("id").as("id")).where("room_id", "in", ids).groupBy("room_id"))
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
const notFromBlocked = (readerId: string) =>
  sql<boolean>`not exists (select 1 from user_blocks b where b.blocker_id = ${readerId} and b.blocked_id = m.sender_id)`;

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
 * A page of a room's messages (SPEC §7): the 30 before the `before` cursor (the id of the oldest
 * message already held), in chronological order, and whether older ones exist.
 */
export async function listMessages({ db, userId, roomId, before }: { db: Database; userId: string; roomId: string; before?: number }) {
  if (!(await isParticipant(db, roomId, userId))) throw new ChatError(404, "room_not_found");
  let query = messagesQuery(db)
    .where("m.room_id", "=", roomId)
    .where(notFromBlocked(userId))
    .orderBy("m.id", "desc")
    .limit(CHAT_MESSAGES_PAGE_SIZE + 1);
  if (before !== undefined) query = query.where("m.id", "<", before);
  const rows = await query.execute();
  const hasMore = rows.length > CHAT_MESSAGES_PAGE_SIZE;
  return { messages: rows.slice(0, CHAT_MESSAGES_PAGE_SIZE).reverse().map(toMessage), hasMore };
}

/** Sends a message (one transaction), then tells every participant who has not blocked the sender. */
export async function sendMessage({
  db,
  realtime,
  senderId,
  roomId,
  content,
  messageType = "TEXT",
  metadata = null,
}: {
  db: Database;
  realtime: Realtime;
  senderId: string;
  roomId: string;
  content: string;
  messageType?: ChatMessageType;
  metadata?: ChatMessageMetadata | null;
}) {
  // One statement, so one round trip and atomic without a transaction: who is in the room (with their names and
  // whether they blocked the sender), the rate limit (counted only for a message that may be sent), the message
  // (only if the limit counted it), the room's activity and the sender's read marker (your own message is read
  // by you). The outcome is told apart from what comes back: no sender among the members is a 404, a block a
  // 403, no message a 429.
  const { rows } = await sql<
    Omit<MessageRow, "sender_id" | "display_name" | "avatar_url"> & {
      members: Array<{ user_id: string; type: ChatRoomType; display_name: string; avatar_url: string | null; blocked_sender: boolean }>;
    }
  >`
    with members as (
      select p.user_id, r.type, u.display_name, u.avatar_url, b.blocker_id is not null as blocked_sender
      from chat_participants p
      join chat_rooms r on r.id = p.room_id
      join users u on u.id = p.user_id
      left join user_blocks b on b.blocker_id = p.user_id and b.blocked_id = ${senderId}::uuid
      where p.room_id = ${roomId}::uuid
    ), admitted as (
      -- In a DIRECT room, someone who blocked you cannot be messaged at all.
      select 1 from members sender
      where sender.user_id = ${senderId}::uuid
        and not (sender.type = 'DIRECT' and exists (select 1 from members other where other.user_id <> ${senderId}::uuid and other.blocked_sender))
    ), ${rateLimitWindowCte({ bucket: `chat:user:${senderId}`, ...CHAT_RATE_LIMIT, from: "admitted" })},
    message as (
      insert into chat_messages (room_id, sender_id, content, message_type, metadata)
      select ${roomId}::uuid, ${senderId}::uuid, ${content}, ${messageType}, ${metadata ? JSON.stringify(metadata) : null}::jsonb
      from rate_limit_counted
      returning id, content, message_type, metadata, room_id, created_at
    ), room as (
      update chat_rooms set last_activity_at = message.created_at from message where chat_rooms.id = message.room_id
    ), read_marker as (
      update chat_participants set last_read_message_id = message.id
      from message where chat_participants.room_id = message.room_id and chat_participants.user_id = ${senderId}::uuid
    )
    select message.*, (select coalesce(json_agg(members), '[]'::json) from members) as members
    from (select 1) as one left join message on true`.execute(db);
  const { members, ...inserted } = rows[0]!;
  const sender = members.find((member) => member.user_id === senderId);
  if (!sender) throw new ChatError(404, "room_not_found");
  const others = members.filter((member) => member.user_id !== senderId);
  if (sender.type === "DIRECT" && others.some((other) => other.blocked_sender)) throw new ChatError(403, "blocked");
  if (inserted.id === null) throw new ChatError(429, "rate_limited");
  const message = toMessage({ ...inserted, sender_id: senderId, display_name: sender.display_name, avatar_url: sender.avatar_url });
  const recipients = others.filter((other) => !other.blocked_sender).map((other) => other.user_id);
  // The message is stored: the event is only a hint, a reconnecting client refetches (PRODUCT §7).
  realtime.toUsers([senderId, ...recipients], RealtimeEvent.chatMessage, message);
  return message;
}

/** Marks everything in the room read for the user (its newest message id). */
export async function markRead({ db, userId, roomId }: { db: Database; userId: string; roomId: string }) {
  const result = await db
    .updateTable("chat_participants")
    .set((eb) => ({
      last_read_message_id: eb.fn.coalesce(
        eb.selectFrom("chat_messages").select((inner) => inner.fn.max<number>("id").as("id")).where("room_id", "=", roomId),
        sql<number>`0`,
      ),
    }))
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
  const known = await db.selectFrom("users").select(["id", "display_name"]).where("id", "in", members).execute();
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
  await trx.updateTable("chat_rooms").set({ last_activity_at: inserted.created_at }).where("id", "=", roomId).execute();
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
