import { z } from "zod";
import { SUBSCRIPTION_DESCRIPTION_MAX, SUBSCRIPTION_PRICE_MIN, SUBSCRIPTIONS_LIST_MAX } from "../constants";
import { coinStep, idempotencyKeySchema, limitParam, multiLineText, uuidParam } from "./fields";

/** A seller's subscription plan (PUT /api/store/subscription-plan, its page): a slider step from 100, what subscribers get. */
export const subscriptionPlanSchema = z.object({
  monthlyPrice: coinStep(SUBSCRIPTION_PRICE_MIN),
  description: multiLineText(SUBSCRIPTION_DESCRIPTION_MAX, { required: false }).optional().default(""),
});
export type SubscriptionPlanInput = z.infer<typeof subscriptionPlanSchema>;

/** POST /api/subscriptions. */
export const subscribeSchema = z.object({ subscribeeId: uuidParam });
/** The confirmation page's form: its idempotency key, made when the page was rendered. */
export const subscribeFormSchema = z.object({ idempotencyKey: idempotencyKeySchema });

/** GET /api/user/subscriptions: `?limit`, its maximum by default. */
export const subscriptionsQuerySchema = z.object({ limit: limitParam(SUBSCRIPTIONS_LIST_MAX, SUBSCRIPTIONS_LIST_MAX) });
