import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, parseOrThrow, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { listNotificationsQuerySchema } from "~/lib/validation/notification";
import { countUnreadNotifications, listNotifications, markAllNotificationsRead } from "~/models/notification.server";

/**
 * GET /api/notifications?limit&offset&prioritizeUnread=true → data.notifications, data.unreadCount;
 * GET /api/notifications?countOnly=true → unreadCount at the top level (docs/product.md#api).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const { countOnly, ...page } = parseOrThrow(listNotificationsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  if (countOnly) return apiOk({ unreadCount: await countUnreadNotifications({ db: context.db, userId: user.id }) });
  return apiOk({ data: await listNotifications({ db: context.db, userId: user.id, ...page }) });
}

/** PATCH /api/notifications marks all of the caller's notifications read. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const updated = await markAllNotificationsRead({ db: context.db, userId: user.id });
  return apiOk({ data: { updated, unreadCount: 0 } });
}
