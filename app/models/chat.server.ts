import { sql } from "kysely";
import type { ChatMessageMetadata, ChatMessageType, ChatRoomType, Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { CHAT_MESSAGES_PAGE_SIZE } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { RealtimeEvent } from "~/lib/realtime-events";
import { onlineFor } from "./presence.server";

/**
 * Chat messages and what a reader sees of them: the shapes, one room's page (getRoom, listMessages), read markers and
 * unread counts, and the notices the app posts inside another change's transaction. The room list and making rooms:
 * ./chat-rooms.server.ts; typed messages are stored by ./chat-sender.server.ts; blocks: ./blocks.server.ts.
 */

/** The shapes of docs/product.md#data. */
export interface ChatMessage {
  id: number;
  content: string;
  messageType: ChatMessageType;
  metadata: ChatMessageMetadata | null;
  chatRoomId: string;
  sender: { uid: string; supabaseId: string; displayName: string; avatar: string | null };
  createdAt: string;
  /** Hidden by the operators (docs/product.md#trust-and-safety): only its sender is shown it, marked 「運営により非表示」. Read from history. */
  hidden?: boolean;
  /** The id the sender's app made for it: its tab tells the message it is still sending by it. */
  clientId?: string;
}

export interface ChatParticipant {
  uid: string;
  displayName: string;
  avatar: string | null;
  /** As the viewer sees it (docs/product.md#realtime): the green dot. */
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

/** The key that makes a pair's DIRECT room one: both ids, sorted. */
export const directKey = (a: string, b: string) => [a, b].sort().join(":");

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

/** Messages (aliased `m`) the operators hid are their sender's alone (docs/product.md#trust-and-safety). */
export const visibleTo = (readerId: string) => sql<boolean>`(m.hidden_at is null or m.sender_id = ${readerId})`;

/** Messages (aliased `m`) from people the reader blocked are not theirs to see. */
export const notFromBlocked = (readerId: string, alias = "m") =>
  sql<boolean>`not exists (select 1 from user_blocks b where b.blocker_id = ${readerId} and b.blocked_id = ${sql.ref(`${alias}.sender_id`)})`;

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
 * A page of a room's messages (docs/product.md#api): the 30 before the `before` cursor (the id of the oldest
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

/** A message the app posted inside someone's transaction, to announce once it commits. */
export interface PostedMessage {
  message: ChatMessage;
  userIds: string[];
  /** The room was made for this message: the pair's sockets join its channel. */
  newRoom: boolean;
}

/**
 * Posts a message from the app on `senderId`'s behalf in the DIRECT room of two people (a booking made or
 * cancelled, docs/product.md#states), making the room if they have none, inside the caller's transaction so the message exists
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
