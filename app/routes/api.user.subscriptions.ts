import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, parseOrThrow, requireApiUser } from "~/http/api.server";
import { subscriptionsQuerySchema } from "~/lib/validation/subscription";
import { listSubscriptions } from "~/models/subscriptions.server";

/**
 * GET /api/user/subscriptions → `{success, subscriptions}` (docs/product.md#api): the caller's subscriptions, active and expired,
 * each with `subscribee.uid`, `expiresAt` and `active`; active ones first, `?limit` of them (100 at most).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const { limit } = parseOrThrow(subscriptionsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return apiOk({ subscriptions: await listSubscriptions({ db: context.db, subscriberId: user.id, limit }) });
}
