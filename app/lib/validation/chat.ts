import { z } from "zod";
import { CHAT_CAPTION_MAX, CHAT_GROUP_MAX_PARTICIPANTS, CHAT_MESSAGE_MAX, CHAT_ROOM_NAME_MAX, CHAT_ROOMS_PAGE_SIZE } from "../constants";
import { messages } from "../messages";
import { limitParam, multiLineText, offPlatformConfirmed, offsetParam, queryInt, singleLineText, uuidParam } from "./fields";

/** What a message of each type people send carries as its content: typed text, or the id of the sender's chat upload. */
const contentOf = {
  TEXT: multiLineText(CHAT_MESSAGE_MAX, { required: messages.chat.emptyMessage }),
  IMAGE: z.string({ required_error: messages.uploads.fileRequired, invalid_type_error: messages.uploads.fileRequired }).uuid(messages.uploads.fileRequired).transform((id) => id.toLowerCase()),
};

/**
 * A chat message as the socket, POST /api/chat/messages and the room's plain form send it: `TEXT` with its text, or
 * `IMAGE` with the upload's id as its content and an optional caption (docs/product.md#chat).
 */
export const sendMessageSchema = z
  .object({
    roomId: uuidParam,
    content: z.unknown(),
    // People send text and pictures; booking notices and system messages are posted by the app itself.
    messageType: z.enum(["TEXT", "IMAGE"], { errorMap: () => ({ message: messages.validation.invalidChoice }) }).optional().default("TEXT"),
    metadata: z
      .object({ caption: multiLineText(CHAT_CAPTION_MAX, { required: false }).nullable().optional() })
      .nullable()
      .optional()
      .default(null),
    offPlatformConfirmed: offPlatformConfirmed(),
    /** Made by the sender's app (or the plain form's page) for this message: a retry with it is stored once (ADR 051). */
    clientId: uuidParam.transform((id) => id.toLowerCase()).optional(),
  })
  .transform(({ metadata, ...message }, context) => {
    const content = contentOf[message.messageType].safeParse(message.content);
    if (!content.success) {
      for (const issue of content.error.issues) context.addIssue({ ...issue, path: ["content", ...issue.path] });
      return z.NEVER;
    }
    // An empty caption is none; a text message's caption means nothing and is not kept.
    const caption = message.messageType === "IMAGE" ? metadata?.caption || null : null;
    return { ...message, content: content.data, metadata: caption ? { caption } : null };
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
