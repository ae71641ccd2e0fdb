import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, chatErrorResponse, chatRefusalResponse, parseOrThrow, readJson, requireApiUser } from "~/http/api.server";
import { listMessagesQuerySchema, sendMessageSchema } from "~/lib/validation/chat";
import { listMessages } from "~/models/chat.server";

/** GET /api/chat/messages?roomId&before → data.messages (30, chronological), data.hasMore. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const query = parseOrThrow(listMessagesQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  try {
    return apiOk({ data: await listMessages({ db: context.db, userId: user.id, ...query }) });
  } catch (error) {
    return chatErrorResponse(error);
  }
}

/**
 * POST /api/chat/messages {roomId, content, messageType, metadata, offPlatformConfirmed?} → data.message. A text that
 * looks like an off-platform payment is stored and counted with or without `offPlatformConfirmed` (the warning is the
 * app's, before it calls this).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireApiUser(context);
  const { offPlatformConfirmed: _confirmed, ...input } = parseOrThrow(sendMessageSchema, await readJson(request));
  const outcome = await context.chat.send({ senderId: user.id, sessionId: user.sessionId, ...input });
  if ("refusal" in outcome) return chatRefusalResponse(outcome.refusal);
  return apiOk({ data: { message: outcome.message } }, { status: 201 });
}
