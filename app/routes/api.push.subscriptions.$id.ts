import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, pushErrorResponse, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { removePushDeviceSchema } from "~/lib/validation/push";
import { PushError, removePushDevice } from "~/models/push.server";

/** DELETE /api/push/subscriptions/:id → 200: the caller's device no longer gets pushes; anyone else's (or none) is 404. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireApiUser(context);
  if (request.method !== "DELETE") return apiError(405, "method_not_allowed", messages.api.failed);
  try {
    const id = removePushDeviceSchema.safeParse({ deviceId: params.id });
    if (!id.success) throw new PushError(404, "subscription_not_found");
    await removePushDevice({ db: context.db, userId: user.id, id: id.data.deviceId });
    return apiOk({});
  } catch (error) {
    return pushErrorResponse(error);
  }
}
