import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, chatErrorResponse, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { uuidParam } from "~/lib/validation/fields";
import { blockUser, unblockUser } from "~/models/blocks.server";
import { ChatError } from "~/models/chat.server";

/** POST blocks the user, DELETE unblocks (docs/product.md#api). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireApiUser(context);
  try {
    const target = uuidParam.safeParse(params.id);
    if (!target.success) throw new ChatError(404, "user_not_found");
    if (request.method === "POST") await blockUser({ db: context.db, blockerId: user.id, blockedId: target.data });
    else if (request.method === "DELETE") await unblockUser({ db: context.db, blockerId: user.id, blockedId: target.data });
    else return apiError(405, "method_not_allowed", messages.api.failed);
    return apiOk({});
  } catch (error) {
    return chatErrorResponse(error);
  }
}
