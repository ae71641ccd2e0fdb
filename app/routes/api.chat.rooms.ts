import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, chatErrorResponse, parseOrThrow, readJson, requireApiUser } from "~/http/api.server";
import { createRoomSchema, listRoomsQuerySchema } from "~/lib/validation/chat";
import { createRoom, listRooms } from "~/models/chat-rooms.server";

/** GET /api/chat/rooms?limit=20&offset=n → data.chatRooms, newest activity first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const query = parseOrThrow(listRoomsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  const chatRooms = await listRooms({ db: context.db, userId: user.id, ...query });
  return apiOk({ data: { chatRooms } });
}

/** POST /api/chat/rooms {participantIds, type, name} → data.chatRoom, data.isNew. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireApiUser(context);
  const input = parseOrThrow(createRoomSchema, await readJson(request));
  try {
    const { chatRoom, isNew } = await createRoom({ db: context.db, realtime: context.realtime, creatorId: user.id, ...input });
    return apiOk({ data: { chatRoom, isNew } }, { status: isNew ? 201 : 200 });
  } catch (error) {
    return chatErrorResponse(error);
  }
}
