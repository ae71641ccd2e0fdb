import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, parseOrThrow, pushErrorResponse, readJson, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { pushEndpointSchema, pushSubscriptionSchema } from "~/lib/validation/push";
import { listPushDevices, removePushEndpoint, savePushSubscription } from "~/models/push.server";

/** GET /api/push/subscriptions → data.devices (the caller's, newest first) and data.publicKey (the VAPID key to subscribe with). */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const devices = await listPushDevices({ db: context.db, userId: user.id });
  return apiOk({ data: { devices, publicKey: context.config.VAPID_PUBLIC_KEY } }, { headers: { "Cache-Control": "no-store" } });
}

/**
 * POST /api/push/subscriptions {endpoint, keys: {p256dh, auth}} (`PushSubscription.toJSON()`) → 201 data.device: this
 * device gets the caller's pushes (ADR 052); the same endpoint again updates it. DELETE {endpoint} → 200: this device
 * no longer does; an endpoint that is not one of the caller's devices is 404.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireApiUser(context);
  try {
    if (request.method === "POST") {
      const subscription = parseOrThrow(pushSubscriptionSchema, await readJson(request));
      const device = await savePushSubscription({
        db: context.db,
        userId: user.id,
        subscription,
        userAgent: request.headers.get("user-agent"),
        outbound: { allowLoopback: context.config.TEST_OUTBOUND_LOOPBACK },
      });
      return apiOk({ data: { device } }, { status: 201 });
    }
    if (request.method === "DELETE") {
      const { endpoint } = parseOrThrow(pushEndpointSchema, await readJson(request));
      await removePushEndpoint({ db: context.db, userId: user.id, endpoint });
      return apiOk({});
    }
    return apiError(405, "method_not_allowed", messages.api.failed);
  } catch (error) {
    return pushErrorResponse(error);
  }
}
