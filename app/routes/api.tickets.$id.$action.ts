import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, apiOk, bookingErrorResponse, parseOrThrow, readJson, requireApiUser, requireIdempotencyKey } from "~/http/api.server";
import { BOOKING_ACTIONS } from "~/lib/booking-rules";
import { messages } from "~/lib/messages";
import { uuidParam } from "~/lib/validation/fields";
import { extendSchema } from "~/lib/validation/listing";
import { actOnBooking } from "~/models/bookings/act.server";

const paramsSchema = z.object({ id: uuidParam, action: z.enum(BOOKING_ACTIONS) });

/**
 * POST /api/tickets/{id}/{accept|cancel|start|extend|check-in|complete} → data.ticket, the booking (docs/product.md#bookings). extend takes
 * {units} and an Idempotency-Key header. A stranger's booking is 404, someone else's action 403, a wrong state 409.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) return apiError(404, "not_found", messages.api.notFound);
  const { id, action } = parsed.data;
  const extension = action === "extend" ? { idempotencyKey: requireIdempotencyKey(request), ...parseOrThrow(extendSchema, await readJson(request)) } : {};
  try {
    const { booking } = await actOnBooking({
      db: context.db,
      realtime: context.realtime,
      feePercent: context.config.PLATFORM_FEE_PERCENT,
      userId: user.id,
      bookingId: id,
      action,
      ...extension,
    });
    return apiOk({ data: { ticket: booking } });
  } catch (error) {
    return bookingErrorResponse(error);
  }
}
