import { fromTokyoWallClock, tokyoWallClock } from "./time";

const HOUR_MS = 3_600_000;
const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** The value of a `datetime-local` input for an instant, in Asia/Tokyo (`2026-11-25T21:00`). */
export function toDateTimeLocal(value: Date | number) {
  const clock = tokyoWallClock(new Date(value));
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}`;
}

/** A sensible first suggestion for a start time: the next full hour after one hour from now, in Asia/Tokyo. */
export function suggestedStart(now: Date) {
  const inTwoHours = tokyoWallClock(new Date(now.getTime() + 2 * HOUR_MS));
  return fromTokyoWallClock({ ...inTwoHours, minute: 0, second: 0, millisecond: 0 });
}

/** `90分`, `2時間`, `2時間30分`. */
export function formatMinutes(minutes: number) {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}分`;
  return rest === 0 ? `${hours}時間` : `${hours}時間${rest}分`;
}
