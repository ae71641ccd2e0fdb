import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, bookingErrorResponse, parseOrThrow, readJson, requireApiUser, requireIdempotencyKey } from "~/http/api.server";
import { purchaseSchema } from "~/lib/validation/booking";
import { messages } from "~/lib/messages";
import { uuidParam } from "~/lib/validation/fields";
import { purchaseListing } from "~/models/bookings/purchase.server";

/**
 * POST /api/listings/{id}/purchase {units, desiredStartTime, note?} with an Idempotency-Key header → data.ticket,
 * the booking (201 when booked, 200 when the key was seen before). Not enough coins: 422 コインが足りません.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const id = uuidParam.safeParse(params.id);
  if (!id.success) return apiError(404, "listing_not_found", messages.listings.listingNotFound);
  const idempotencyKey = requireIdempotencyKey(request);
  const input = parseOrThrow(purchaseSchema, await readJson(request));
  try {
    const { booking, isNew } = await purchaseListing({ db: context.db, realtime: context.realtime, buyerId: user.id, listingId: id.data, input, idempotencyKey });
    return apiOk({ data: { ticket: booking } }, { status: isNew ? 201 : 200 });
  } catch (error) {
    return bookingErrorResponse(error);
  }
}
