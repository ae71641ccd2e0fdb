import { z } from "zod";
import { REVIEW_COMMENT_MAX, REVIEW_TIP_MIN } from "../constants";
import { messages } from "../messages";
import { coinStep, multiLineText, uuidParam } from "./fields";

/**
 * A review (docs/product.md#data, #validation): the booking, 1–5 stars, an optional comment (trimmed, at most 500 characters) and, for the
 * buyer, a tip chosen with the coin slider from 0. The dialog, the page and POST /api/reviews share it.
 */
export const reviewSchema = z.object({
  bookingId: uuidParam,
  rating: z
    .union([z.number(), z.string().trim().regex(/^\d$/, messages.reviews.ratingRequired).transform(Number)], {
      errorMap: () => ({ message: messages.reviews.ratingRequired }),
    })
    .pipe(z.number().int(messages.reviews.ratingRequired).min(1, messages.reviews.ratingRequired).max(5, messages.reviews.ratingRequired)),
  comment: multiLineText(REVIEW_COMMENT_MAX, { required: false })
    .nullable()
    .optional()
    .transform((comment) => comment ?? ""),
  tipAmount: coinStep(REVIEW_TIP_MIN).optional().default(0),
});
export type ReviewInput = z.infer<typeof reviewSchema>;
