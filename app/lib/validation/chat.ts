import { z } from "zod";
import { CHAT_GROUP_MAX_PARTICIPANTS, CHAT_MESSAGE_MAX, CHAT_ROOM_NAME_MAX, CHAT_ROOMS_PAGE_SIZE } from "../constants";
import { messages } from "../messages";
import { limitParam, multiLineText, offPlatformConfirmed, offsetParam, queryInt, singleLineText, uuidParam } from "./fields";

/** A chat message as the socket, POST /api/chat/messages and the room's plain form send it. */
export const sendMessageSchema = z.object({
  roomId: uuidParam,
  content: multiLineText(CHAT_MESSAGE_MAX, { required: messages.chat.emptyMessage }),
  // People send text; booking notices and system messages are posted by the app itself.
  messageType: z.literal("TEXT").optional().default("TEXT"),
  metadata: z
    .object({ caption: multiLineText(CHAT_MESSAGE_MAX, { required: false }).nullable().optional() })
    .nullable()
    .optional()
    .default(null),
  offPlatformConfirmed: offPlatformConfirmed(),
  /** Made by the sender's app (or the plain form's page) for this message: a retry with it is stored once (ADR 051). */
  clientId: uuidParam.transform((id) => id.toLowerCase()).optional(),
});

export const createRoomSchema = z.object({
  participantIds: z.array(uuidParam).min(1).max(CHAT_GROUP_MAX_PARTICIPANTS),
  type: z.enum(["DIRECT", "GROUP"]).optional().default("DIRECT"),
  name: singleLineText(CHAT_ROOM_NAME_MAX, { required: false }).nullable().optional().default(null),
});

export const listRoomsQuerySchema = z.object({
  limit: limitParam(CHAT_ROOMS_PAGE_SIZE, CHAT_ROOMS_PAGE_SIZE),
  offset: offsetParam,
});

/** A message id to page back from (ids are bigint; beyond the safe integers none exists). */
const beforeParam = queryInt(1, Number.MAX_SAFE_INTEGER).optional();

export const listMessagesQuerySchema = z.object({
  roomId: uuidParam,
  before: beforeParam,
});

/** `?before=id` of the chat room page. */
export const roomPageQuerySchema = z.object({ before: beforeParam });
