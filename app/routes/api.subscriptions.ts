import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, parseOrThrow, readJson, requireApiUser, requireIdempotencyKey, subscriptionErrorResponse } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { subscribeSchema } from "~/lib/validation/subscription";
import { subscribe } from "~/models/subscriptions.server";

/**
 * POST /api/subscriptions {subscribeeId}, header Idempotency-Key → 201 `data.subscription` (subscribee.uid,
 * expiresAt), 200 with the same answer for a repeated key. 30 days from the current expiry while one is active.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const idempotencyKey = requireIdempotencyKey(request);
  const { subscribeeId } = parseOrThrow(subscribeSchema, await readJson(request));
  try {
    const { subscription, created } = await subscribe({
      db: context.db,
      realtime: context.realtime,
      feePercent: context.config.PLATFORM_FEE_PERCENT,
      subscriberId: user.id,
      subscribeeId,
      idempotencyKey,
    });
    return apiOk({ data: { subscription } }, { status: created ? 201 : 200 });
  } catch (error) {
    return subscriptionErrorResponse(error);
  }
}
