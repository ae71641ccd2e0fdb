import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { getProfile, listActiveSubscriptions } from "~/models/user.server";

/** GET /api/auth/me: the caller's profile and subscriptions; 404 while the profile is not set up (docs/product.md#states, #api). */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const profile = await getProfile({ db: context.db, userId: user.id });
  if (!profile) return apiError(404, "profile_not_found", messages.profile.notSetUp);
  const subscriptions = await listActiveSubscriptions({ db: context.db, userId: user.id });
  return apiOk({ data: { user: { ...profile, email: user.email }, subscriptions } });
}
