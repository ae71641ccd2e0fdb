import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUser } from "~/http/api.server";

/**
 * GET /api/auth/token: the session's current access token, for the browser's socket (docs/product.md#realtime). The session lives in
 * the cookies, which this request refreshes when the token has expired; a signed-out caller gets 401.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  return apiOk({ accessToken: user.accessToken }, { headers: { "Cache-Control": "no-store" } });
}
