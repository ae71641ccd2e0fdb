import type { Realtime } from "~/infra/realtime";
import type { RealtimeEventName } from "~/lib/realtime-events";
import { publishPosted, type PostedMessage } from "../chat.server";
import { publishNotifications, type PendingNotifications } from "../notification.server";

/** What a committed change of a booking announces: notifications, chat notices and realtime events. */
export interface Effects {
  pending: PendingNotifications;
  posted: PostedMessage[];
  events: Array<{ userIds: string[]; event: RealtimeEventName; payload: unknown }>;
}
export const noEffects = (): Effects => ({ pending: [], posted: [], events: [] });

/** Sends what a booking's transaction wrote, once it has committed. */
export function announce(realtime: Realtime, effects: Effects) {
  publishPosted(realtime, effects.posted);
  publishNotifications(realtime, effects.pending);
  for (const { userIds, event, payload } of effects.events) realtime.toUsers(userIds, event, payload);
}

/** Where a booking's notifications lead: the page that lists the person's bookings. */
export const managementLink = "/settings/ticket-management";
