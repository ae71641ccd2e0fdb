import { z } from "zod";
import { COIN_HISTORY_LIMIT_MAX, COIN_HISTORY_PAGE_SIZE, STRIPE_ID_MAX } from "../constants";
import { idempotencyKeySchema, limitParam, offsetParam, singleLineText } from "./fields";

/** A coin package id: a whole number, in JSON or a form field (docs/product.md#data: 1–7). */
export const packageIdSchema = z.union([z.number(), z.string().trim().regex(/^\d{1,9}$/).transform(Number)]).pipe(z.number().int().positive());

/** POST /api/coins/orders {packageId}. */
export const coinOrderSchema = z.object({ packageId: packageIdSchema });

/** The checkout form: the key it was rendered with. */
export const checkoutFormSchema = z.object({ idempotencyKey: idempotencyKeySchema });

/** GET /api/coins/history and /settings/coin-history. */
export const coinHistoryQuerySchema = z.object({
  limit: limitParam(COIN_HISTORY_LIMIT_MAX, COIN_HISTORY_PAGE_SIZE),
  offset: offsetParam,
});

/**
 * A verified Stripe event, as far as the app reads it (POST /api/webhooks/stripe): the ids and type are stored, so
 * they are text like any other; a signed event of another shape is refused, not half-handled.
 */
export const paymentEventSchema = z.object({
  id: singleLineText(STRIPE_ID_MAX),
  type: singleLineText(STRIPE_ID_MAX),
  data: z.object({
    object: z
      .object({
        id: singleLineText(STRIPE_ID_MAX),
        payment_status: singleLineText(STRIPE_ID_MAX, { required: false }).optional(),
        metadata: z.record(z.string(), z.unknown()).nullable().optional(),
      })
      .passthrough(),
  }),
});
