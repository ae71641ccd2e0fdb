import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUser } from "~/http/api.server";
import { listSubscriptions } from "~/models/subscriptions.server";

/**
 * GET /api/user/subscriptions → `{success, subscriptions}` (SPEC §7): the caller's subscriptions, active and expired,
 * each with `subscribee.uid`, `expiresAt` and `active`.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  return apiOk({ subscriptions: await listSubscriptions({ db: context.db, subscriberId: user.id }) });
}
