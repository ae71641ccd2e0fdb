import { z } from "zod";
import { NOTIFICATIONS_LIMIT_MAX, NOTIFICATIONS_PAGE_SIZE } from "../constants";
import { booleanParam, limitParam, offsetParam } from "./fields";

/** GET /api/notifications (docs/product.md#api): a page, unread first when asked; or just the unread count. */
export const listNotificationsQuerySchema = z.object({
  limit: limitParam(NOTIFICATIONS_LIMIT_MAX, NOTIFICATIONS_PAGE_SIZE),
  offset: offsetParam,
  prioritizeUnread: booleanParam,
  countOnly: booleanParam,
});
