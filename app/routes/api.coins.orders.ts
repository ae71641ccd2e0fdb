import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, coinErrorResponse, parseOrThrow, readJson, requireApiUser, requireIdempotencyKey } from "~/http/api.server";
import { coinUrls } from "~/http/coins.server";
import { messages } from "~/lib/messages";
import { coinOrderSchema } from "~/lib/validation/coins";
import { placeOrder } from "~/models/coin-orders.server";

/**
 * POST /api/coins/orders {packageId} with an Idempotency-Key header → data.order (201 when placed, 200 when the
 * key was seen before). Test provider: the order comes back paid; Stripe: with its checkoutUrl.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const idempotencyKey = requireIdempotencyKey(request);
  const { packageId } = parseOrThrow(coinOrderSchema, await readJson(request));
  try {
    const { order, isNew } = await placeOrder({
      db: context.db,
      realtime: context.realtime,
      payments: context.payments,
      userId: user.id,
      packageId,
      idempotencyKey,
      urls: coinUrls(request, packageId),
    });
    return apiOk({ data: { order } }, { status: isNew ? 201 : 200 });
  } catch (error) {
    return coinErrorResponse(error);
  }
}
