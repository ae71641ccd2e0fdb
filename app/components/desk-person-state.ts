import * as text from "~/lib/messages/desk";
import { formatDateTime } from "~/lib/time";

/** A member's state in words on the desk: left, banned since, suspended until, or active. */
export function personState(person: { left: boolean; bannedAt: Date | null; suspendedUntil: Date | null }, now = Date.now()) {
  if (person.left) return text.statusLeft;
  if (person.bannedAt) return text.statusBanned(formatDateTime(person.bannedAt));
  if (person.suspendedUntil && person.suspendedUntil.getTime() > now) return text.statusSuspended(formatDateTime(person.suspendedUntil));
  return text.statusActive;
}
