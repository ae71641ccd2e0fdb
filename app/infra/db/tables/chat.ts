import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, UpdatedAt } from "./columns";

/** Chat rooms, their members and messages. */

export type ChatRoomType = "DIRECT" | "GROUP" | "BOOKING";
export type ChatMessageType = "TEXT" | "IMAGE" | "ticket_purchased" | "ticket_cancelled" | "SYSTEM";
export interface ChatMessageMetadata {
  caption?: string | null;
  /** An image message's picture, in pixels (its upload's), so a page sets the thumbnail's box before it arrives. */
  width?: number;
  height?: number;
  /** The picture's dominant colour (`#rrggbb`), painted in its box until the thumbnail arrives (ADR 070). */
  placeholder?: string;
  /** The picture was removed (its message hidden by the operators, its sender's account closed: ADR 070). */
  removed?: boolean;
  type?: string;
  buyerId?: string;
}

export interface ChatRoomsTable {
  id: Generated<string>;
  type: ColumnType<ChatRoomType, ChatRoomType | undefined, ChatRoomType>;
  name: string | null;
  direct_key: string | null;
  created_at: CreatedAt;
  last_activity_at: UpdatedAt;
  /** The newest message, written with `last_activity_at` by every send. */
  last_message_id: ColumnType<number, number | undefined, number>;
  /** Up to which message the chat digest has settled every member (chat-digest.server.ts). */
  digest_settled_id: ColumnType<number, number | undefined, number>;
}

export interface ChatParticipantsTable {
  room_id: string;
  user_id: string;
  joined_at: CreatedAt;
  last_read_message_id: ColumnType<number, number | undefined, number>;
  /** The chat digest's marks (chat-digest.server.ts): the newest message it looked at, and its last digest's time. */
  digested_message_id: ColumnType<number, number | undefined, number>;
  digested_at: Date | null;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  room_id: string;
  sender_id: string;
  content: string;
  message_type: ColumnType<ChatMessageType, ChatMessageType | undefined, ChatMessageType>;
  metadata: ColumnType<ChatMessageMetadata | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  /** Hidden by the operators: shown to its author only. */
  hidden_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The id the sender's app made for it, so that a retry is stored once (ADR 051); null for the app's own. */
  client_id: ColumnType<string | null, string | null | undefined, never>;
  /** An image message's picture (its content names it too): one message per upload; null once removed (ADR 070). */
  upload_id: ColumnType<string | null, string | null | undefined, null>;
}
