import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk } from "~/http/api.server";
import { WEBHOOK_BODY_MAX_BYTES } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { paymentEventSchema } from "~/lib/validation/coins";
import { handlePaymentEvent } from "~/models/coin-orders.server";

/**
 * POST /api/webhooks/stripe: Stripe's signed events (docs/product.md#api). The raw body is verified with the webhook secret;
 * an event that does not verify is a 400 and changes nothing. Handled, or handled before: 200.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { payments } = context;
  if (payments.provider !== "stripe") return apiError(404, "not_found", messages.api.notFound);
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  // Stripe's events are a few kilobytes; anything far larger is not one of them.
  if (Number(request.headers.get("Content-Length") ?? 0) > WEBHOOK_BODY_MAX_BYTES) return apiError(413, "too_large", messages.validation.checkInput);
  const signature = request.headers.get("Stripe-Signature");
  const body = await request.text();
  let verified;
  try {
    if (!signature) throw new Error("no Stripe-Signature header");
    verified = payments.verifyWebhook(body, signature);
  } catch {
    return apiError(400, "invalid_signature", messages.validation.checkInput);
  }
  const parsed = paymentEventSchema.safeParse(verified);
  if (!parsed.success) return apiError(400, "invalid_event", messages.validation.checkInput);
  const event = parsed.data;
  const outcome = await handlePaymentEvent({ db: context.db, realtime: context.realtime, event });
  return apiOk({ received: true, outcome });
}
