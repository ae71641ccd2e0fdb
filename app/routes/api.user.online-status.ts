import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { markSeen } from "~/models/presence.server";

/** POST /api/user/online-status: the heartbeat of a visible, signed-in tab (docs/product.md#api, every 60 s). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  await markSeen({ db: context.db, realtime: context.realtime, userIds: [user.id] });
  return apiOk({ data: { online: true } });
}
