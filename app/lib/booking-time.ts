import { DateTime } from "luxon";
import { DISPLAY_TIME_ZONE } from "./constants";

/** The value of a `datetime-local` input for an instant, in Asia/Tokyo (`2026-11-25T21:00`). */
export const toDateTimeLocal = (value: Date | number) =>
  DateTime.fromMillis(typeof value === "number" ? value : value.getTime(), { zone: DISPLAY_TIME_ZONE }).toFormat("yyyy-LL-dd'T'HH:mm");

/** A sensible first suggestion for a start time: the next full hour after one hour from now, in Asia/Tokyo. */
export const suggestedStart = (now: Date) =>
  DateTime.fromJSDate(now, { zone: DISPLAY_TIME_ZONE }).plus({ hours: 2 }).startOf("hour").toJSDate();

/** `90分`, `2時間`, `2時間30分`. */
export function formatMinutes(minutes: number) {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}分`;
  return rest === 0 ? `${hours}時間` : `${hours}時間${rest}分`;
}
