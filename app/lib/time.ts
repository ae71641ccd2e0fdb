import { DateTime } from "luxon";
import { DISPLAY_TIME_ZONE, SECONDS_TIMESTAMP_LIMIT } from "./constants";

export type TimeInput = number | string | Date;

/**
 * Reads a timestamp the way the API sends them (SPEC §3): numbers below 1e12 are seconds, larger
 * numbers milliseconds; strings are ISO 8601, RFC 2822 or SQL dates. The result is in Asia/Tokyo.
 * Invalid input gives an invalid DateTime (check `.isValid`).
 */
export function toTokyo(value: TimeInput): DateTime {
  let dateTime: DateTime;
  if (value instanceof Date) {
    dateTime = DateTime.fromJSDate(value);
  } else if (typeof value === "number") {
    dateTime = Number.isFinite(value)
      ? DateTime.fromMillis(Math.abs(value) < SECONDS_TIMESTAMP_LIMIT ? value * 1000 : value)
      : DateTime.invalid("not a finite number");
  } else {
    const text = value.trim();
    dateTime = /^-?\d+(\.\d+)?$/.test(text)
      ? toTokyo(Number(text))
      : [DateTime.fromISO, DateTime.fromRFC2822, DateTime.fromSQL]
          .map((parse) => parse(text, { zone: DISPLAY_TIME_ZONE, setZone: false }))
          .find((parsed) => parsed.isValid) ?? DateTime.invalid("unrecognised date string");
  }
  return dateTime.setZone(DISPLAY_TIME_ZONE).setLocale("ja");
}

const INVALID = "—";

/** A formatter for a luxon pattern in Asia/Tokyo; a dash for what cannot be read. */
const formatAs = (pattern: string) => (value: TimeInput) => {
  const dateTime = toTokyo(value);
  return dateTime.isValid ? dateTime.toFormat(pattern) : INVALID;
};

/** `2026/11/22 21:30` */
export const formatDateTime = formatAs("yyyy/LL/dd HH:mm");
/** `2026/11/22` */
export const formatDate = formatAs("yyyy/LL/dd");
/** `21:30` */
export const formatTime = formatAs("HH:mm");
/** `11月22日(日)`: a day heading in schedules and chat. */
export const formatDayHeading = formatAs("M月d日(ccc)");

/** `3分前`, `2日前`, `たった今`: falls back to the date after a week. */
export function formatRelative(value: TimeInput, now: TimeInput = Date.now()) {
  const dateTime = toTokyo(value);
  const base = toTokyo(now);
  if (!dateTime.isValid || !base.isValid) return INVALID;
  const seconds = base.diff(dateTime, "seconds").seconds;
  if (seconds < 60) return "たった今";
  if (seconds >= 7 * 24 * 3600) return formatDate(value);
  return dateTime.toRelative({ base, locale: "ja" }) ?? formatDate(value);
}

/** The value for a `<time dateTime>` attribute. */
export function isoString(value: TimeInput) {
  const dateTime = toTokyo(value);
  return dateTime.isValid ? dateTime.toISO() ?? "" : "";
}
