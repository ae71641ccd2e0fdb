import { DISPLAY_TIME_ZONE, SECONDS_TIMESTAMP_LIMIT } from "./constants";

export type TimeInput = number | string | Date;

/** The calendar fields a wall clock shows; months and days count from 1. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** A wall clock in Asia/Tokyo, with its weekday in Japanese (`日`). */
export interface TokyoClock extends WallClock {
  weekday: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;

/** Asia/Tokyo's wall clock, from Intl: the same parts on the server and in every browser. */
const tokyoFormat = new Intl.DateTimeFormat("ja-JP", {
  timeZone: DISPLAY_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  weekday: "short",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** What a clock in Asia/Tokyo shows at an instant; null for an instant beyond Date's range. */
function tokyoClockAt(time: number): TokyoClock | null {
  // formatToParts throws for an instant beyond Date's range, which a far-off guess in instantOf can be.
  if (Number.isNaN(new Date(time).getTime())) return null;
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of tokyoFormat.formatToParts(time)) parts[type] = value;
  const clock = {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((time % 1000) + 1000) % 1000,
    weekday: parts.weekday ?? "",
  };
  // Intl counts the years before 1 backwards in an era of their own (紀元前); the right year puts the clock within a day of the instant.
  if (!(Math.abs(utcTime(clock) - time) <= DAY_MS)) clock.year = 1 - clock.year;
  return clock;
}

/** The instant at which a UTC clock shows these fields; NaN when they are no date (30 February, 25:00). */
function utcTime(clock: WallClock) {
  const { hour, minute, second } = clock;
  const validTime = hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
  // ISO 8601 and luxon allow 24:00 as the end of a day.
  const endOfDay = hour === 24 && minute === 0 && second === 0 && clock.millisecond === 0;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0–99 as they are.
  date.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  if (date.getUTCMonth() !== clock.month - 1 || date.getUTCDate() !== clock.day || !(validTime || endOfDay)) return Number.NaN;
  return date.setUTCHours(hour, minute, second, clock.millisecond);
}

/** How far Tokyo's clock is ahead of UTC at an instant, in milliseconds, as Intl knows it. */
function tokyoOffset(time: number) {
  const clock = tokyoClockAt(time);
  return clock ? utcTime(clock) - time : Number.NaN;
}

/** The instant at which a clock at this offset (minutes east of UTC; Asia/Tokyo's when absent) shows these fields. */
function instantOf(clock: WallClock, offsetMinutes?: number) {
  const local = utcTime(clock);
  if (Number.isNaN(local)) return Number.NaN;
  if (offsetMinutes !== undefined) return local - offsetMinutes * MINUTE_MS;
  // The offset is the one at the instant sought: guess with the offset at the local reading, then take the offset at the guess.
  const guess = local - tokyoOffset(local);
  return local - tokyoOffset(guess);
}

/** The instant at which a clock in Asia/Tokyo shows these fields (a `datetime-local` value, a start of the hour). */
export const fromTokyoWallClock = (clock: WallClock) => new Date(instantOf(clock));

/** What a clock in Asia/Tokyo shows at this instant. */
export const tokyoWallClock = (date: Date) => tokyoClockAt(date.getTime())!;

/**
 * An ISO 8601 date-time as this app writes it: JSON's Dates (`2026-11-22T12:30:00.000Z`), PostgreSQL's JSON
 * timestamps (`2026-11-22T12:30:00.123456+00:00`), isoString's (`…21:30:00.000+09:00`), a `datetime-local` value or a
 * bare date (no zone: Asia/Tokyo).
 */
const APP_DATE_TIME = /^([+-]\d{6}|\d{4})-(\d\d)-(\d\d)(?:[Tt](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d{1,9}))?)?)?(?:([Zz])|([+-])(\d\d):?(\d\d))?$/;
/** A number as text: seconds or milliseconds by the rule of docs/product.md#data, never a date (`20261122` is a number here). */
export const NUMERIC_TIME = /^-?\d+(\.\d+)?$/;

const fromNumber = (value: number) => (Math.abs(value) < SECONDS_TIMESTAMP_LIMIT ? value * 1000 : value);

function readAppDateTime(text: string) {
  const match = APP_DATE_TIME.exec(text);
  if (!match) return Number.NaN;
  const [, year, month, day, hour, minute, second, fraction, utc, sign, offsetHours, offsetMinutes] = match;
  const clock = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
    millisecond: fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0,
  };
  const offset = utc ? 0 : sign ? (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : undefined;
  return instantOf(clock, offset);
}

/**
 * Reads a time the app itself wrote, the same way on the server and in every browser (the pages' text must match at
 * hydration): a Date; a number or numeric string by the rule of docs/product.md#data (below 1e12 seconds, else milliseconds); an ISO
 * 8601 date-time as above. null for anything else. Date strings from outside (the API's RFC 2822, SQL, week dates,
 * zone names) are the server's to read, with luxon: parseTime in ~/lib/time.server.
 */
export function readTime(value: TimeInput): Date | null {
  let time: number;
  if (value instanceof Date) time = value.getTime();
  else if (typeof value === "number") time = fromNumber(value);
  else {
    const text = value.trim();
    time = NUMERIC_TIME.test(text) ? fromNumber(Number(text)) : readAppDateTime(text);
  }
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date;
}

const INVALID = "—";

const pad = (value: number, width = 2): string => (value < 0 ? `-${pad(-value, width)}` : String(value).padStart(width, "0"));
/** ISO 8601 writes years beyond 9999 or before 0 with a sign and six digits. */
const isoYear = (year: number) => (year > 9999 ? `+${pad(year, 6)}` : year < 0 ? `-${pad(-year, 6)}` : pad(year, 4));
const isoDate = (clock: WallClock) => `${isoYear(clock.year)}-${pad(clock.month)}-${pad(clock.day)}`;

/** A formatter that writes the Tokyo wall clock of what it reads; a dash for what cannot be read. */
const formatAs = (write: (clock: TokyoClock) => string) => (value: TimeInput) => {
  const date = readTime(value);
  return date ? write(tokyoWallClock(date)) : INVALID;
};

// The strings are put together from Intl's parts so that the server and every browser write the same text.
/** `2026/11/22 21:30` */
export const formatDateTime = formatAs((clock) => `${pad(clock.year, 4)}/${pad(clock.month)}/${pad(clock.day)} ${pad(clock.hour)}:${pad(clock.minute)}`);
/** `2026/11/22` */
export const formatDate = formatAs((clock) => `${pad(clock.year, 4)}/${pad(clock.month)}/${pad(clock.day)}`);
/** `21:30` */
export const formatTime = formatAs((clock) => `${pad(clock.hour)}:${pad(clock.minute)}`);
/** `11月22日(日)`: a day heading in schedules and chat. */
export const formatDayHeading = formatAs((clock) => `${clock.month}月${clock.day}日(${clock.weekday})`);

const relativeFormat = new Intl.RelativeTimeFormat("ja", { numeric: "always" });
const RELATIVE_UNITS = [
  ["day", DAY_MS],
  ["hour", HOUR_MS],
  ["minute", MINUTE_MS],
] as const;

/** `5 分前`, `2 日前`, `たった今`: falls back to the date after a week. */
export function formatRelative(value: TimeInput, now: TimeInput = Date.now()) {
  const date = readTime(value);
  const base = readTime(now);
  if (!date || !base) return INVALID;
  const elapsed = base.getTime() - date.getTime();
  if (elapsed < MINUTE_MS) return "たった今";
  if (elapsed >= WEEK_MS) return formatDate(date);
  const [unit, size] = RELATIVE_UNITS.find(([, size]) => elapsed >= size)!;
  return relativeFormat.format(-Math.trunc(elapsed / size), unit);
}

/** The day in Asia/Tokyo as `2026-11-22`, to group by day; empty for what cannot be read. */
export function tokyoDateKey(value: TimeInput) {
  const date = readTime(value);
  return date ? isoDate(tokyoWallClock(date)) : "";
}

/** The value for a `<time dateTime>` attribute: `2026-11-22T21:30:00.000+09:00`; empty for what cannot be read. */
export function isoString(value: TimeInput) {
  const date = readTime(value);
  if (!date) return "";
  const clock = tokyoWallClock(date);
  const offsetMinutes = Math.trunc((utcTime(clock) - date.getTime()) / MINUTE_MS);
  const offset = `${offsetMinutes < 0 ? "-" : "+"}${pad(Math.trunc(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${isoDate(clock)}T${pad(clock.hour)}:${pad(clock.minute)}:${pad(clock.second)}.${pad(clock.millisecond, 3)}${offset}`;
}
