import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUser } from "~/http/api.server";
import { countUnread } from "~/models/chat.server";

/** GET /api/chat/unread-count → `unreadCount` at the top level (docs/product.md#api). */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  return apiOk({ unreadCount: await countUnread({ db: context.db, userId: user.id }) });
}
