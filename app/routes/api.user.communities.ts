import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUser } from "~/http/api.server";
import { listUserCommunities } from "~/models/communities.server";

/** GET /api/user/communities → `{success, data: {communities}}`: the caller's communities (the post dialog's choice). */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  return apiOk({ data: { communities: await listUserCommunities({ db: context.db, userId: user.id }) } });
}
