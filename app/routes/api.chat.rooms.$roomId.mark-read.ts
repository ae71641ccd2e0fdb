import type { ActionFunctionArgs } from "@remix-run/node";
import { apiOk, chatErrorResponse, parseOrThrow, requireApiUser } from "~/http/api.server";
import { uuidParam } from "~/lib/validation/fields";
import { ChatError, markRead } from "~/models/chat.server";

/** POST /api/chat/rooms/{roomId}/mark-read: everything in the room is read. */
export async function action({ params, context }: ActionFunctionArgs) {
  const user = await requireApiUser(context);
  try {
    const roomId = uuidParam.safeParse(params.roomId);
    if (!roomId.success) throw new ChatError(404, "room_not_found");
    await markRead({ db: context.db, userId: user.id, roomId: roomId.data });
    return apiOk({});
  } catch (error) {
    return chatErrorResponse(error);
  }
}
