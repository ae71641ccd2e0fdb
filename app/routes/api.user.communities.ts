import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, parseOrThrow, requireApiUser } from "~/http/api.server";
import { userCommunitiesQuerySchema } from "~/lib/validation/community";
import { listUserCommunities } from "~/models/communities.server";

/**
 * GET /api/user/communities → `{success, data: {communities}}`: the caller's communities (the post dialog's choice), by
 * name, `?limit` of them (100 at most).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const { limit } = parseOrThrow(userCommunitiesQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return apiOk({ data: { communities: await listUserCommunities({ db: context.db, userId: user.id, limit }) } });
}
