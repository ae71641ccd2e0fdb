import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, parseOrThrow, readJson, requireApiUser, reviewErrorResponse } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { reviewSchema } from "~/lib/validation/review";
import { submitReview } from "~/models/reviews.server";

/**
 * POST /api/reviews {bookingId, rating, comment?, tipAmount} → 201 success (docs/product.md#api): a participant of a completed
 * booking, once; a tip only from the buyer, through the ledger; not enough coins 422 コインが足りません.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const input = parseOrThrow(reviewSchema, await readJson(request));
  try {
    const review = await submitReview({ db: context.db, realtime: context.realtime, feePercent: context.config.PLATFORM_FEE_PERCENT, reviewerId: user.id, input });
    return apiOk({ data: { review } }, { status: 201 });
  } catch (error) {
    return reviewErrorResponse(error);
  }
}
