import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, parseOrThrow, readJson, requireApiUser, subscriptionErrorResponse } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { subscriptionPlanSchema } from "~/lib/validation/subscription";
import { getPlan, savePlan, withdrawPlan } from "~/models/subscriptions.server";

/** GET /api/store/subscription-plan: the caller's plan (`data.plan`, null without one). */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  return apiOk({ data: { plan: await getPlan({ db: context.db, sellerId: user.id }) } });
}

/**
 * PUT {monthlyPrice, description?} sets or changes the caller's plan → `data.plan` (docs/product.md#api); DELETE withdraws
 * it (subscribers keep access until their expiry).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireApiUser(context);
  if (request.method === "DELETE") {
    await withdrawPlan({ db: context.db, sellerId: user.id });
    return apiOk({ data: { plan: null } });
  }
  if (request.method !== "PUT") return apiError(405, "method_not_allowed", messages.api.failed);
  const input = parseOrThrow(subscriptionPlanSchema, await readJson(request));
  try {
    return apiOk({ data: { plan: await savePlan({ db: context.db, sellerId: user.id, input }) } });
  } catch (error) {
    return subscriptionErrorResponse(error);
  }
}
