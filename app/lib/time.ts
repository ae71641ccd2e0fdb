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

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** One cached formatter per time zone; null for a name that is not a zone. */
function wallClockFormat(timeZone: string) {
  // Zone names are case-insensitive: one formatter per zone however a string spells it.
  const key = timeZone.toLowerCase();
  let format = wallClockFormats.get(key);
  if (format) return format;
  try {
    format = new Intl.DateTimeFormat("ja-JP", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      weekday: "short",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    // Not cached: the names in strings sent to the API are unbounded, the zones Intl knows are not.
    return null;
  }
  wallClockFormats.set(key, format);
  return format;
}

/** What a clock in `timeZone` shows at an instant; null for an unknown zone. */
function wallClockIn(time: number, timeZone: string): TokyoClock | null {
  const format = wallClockFormat(timeZone);
  // formatToParts throws for an instant beyond Date's range, which a far-off guess in instantOf can be.
  if (!format || Number.isNaN(new Date(time).getTime())) return null;
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of format.formatToParts(time)) parts[type] = value;
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

/** How far a zone's clock is ahead of UTC at an instant, in milliseconds, as Intl knows it. */
function zoneOffset(time: number, timeZone: string) {
  const clock = wallClockIn(time, timeZone);
  return clock ? utcTime(clock) - time : Number.NaN;
}

/** Minutes east of UTC, a zone name, or nothing for a string that names no zone (read in Asia/Tokyo). */
type Zone = number | string | undefined;

/** The instant at which a clock in `zone` shows these fields; NaN when it cannot be. */
function instantOf(clock: WallClock, zone: Zone = DISPLAY_TIME_ZONE) {
  const local = utcTime(clock);
  if (Number.isNaN(local)) return Number.NaN;
  if (typeof zone === "number") return local - zone * MINUTE_MS;
  // The offset is the one at the instant sought: guess with the offset at the local reading, then take the offset at the guess.
  const guess = local - zoneOffset(local, zone);
  return local - zoneOffset(guess, zone);
}

/** The instant at which a clock in Asia/Tokyo shows these fields (a `datetime-local` value, a start of the hour). */
export const fromTokyoWallClock = (clock: WallClock) => new Date(instantOf(clock));

/** What a clock in Asia/Tokyo shows at this instant. */
export const tokyoWallClock = (date: Date) => wallClockIn(date.getTime(), DISPLAY_TIME_ZONE)!;

// Parsing: the patterns are luxon's (fromISO, fromRFC2822, fromSQL), which read these strings before.
const TIME = String.raw`(\d\d)(?::?(\d\d)(?::?(\d\d)(?:[.,](\d{1,30}))?)?)?`;
const OFFSET = String.raw`([Zz])|([+-]\d\d)(?::?(\d\d))?`;
const ZONE_NAME = String.raw`[A-Za-z_+-]{1,256}(?::?\/[A-Za-z0-9_+-]{1,256}(?:\/[A-Za-z0-9_+-]{1,256})?)?`;
const ISO_TIME = String.raw`(?:[Tt]${TIME}(?:(?:${OFFSET})?(?:\[(${ZONE_NAME})\])?)?)?$`;
const ISO_CALENDAR_DATE = new RegExp(String.raw`^([+-]\d{6}|\d{4})(?:-?(\d\d)(?:-?(\d\d))?)?${ISO_TIME}`);
const ISO_WEEK_DATE = new RegExp(String.raw`^(\d{4})-?W(\d\d)(?:-?(\d))?${ISO_TIME}`);
const ISO_ORDINAL_DATE = new RegExp(String.raw`^(\d{4})-?(\d{3})${ISO_TIME}`);
const SQL_DATE = new RegExp(String.raw`^(\d{4})-(\d\d)-(\d\d)(?: ${TIME} ?(?:${OFFSET}|(${ZONE_NAME}))?)?$`);
const RFC_2822_DATE =
  /^(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun),\s)?(\d{1,2})\s(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s(\d{2,4})\s(\d\d):(\d\d)(?::(\d\d))?\s(?:(UT|GMT|[ECMP][SD]T)|([Zz])|([+-]\d\d)(\d\d))$/;
const RFC_2822_ZONES: Record<string, number> = { UT: 0, GMT: 0, EDT: -240, EST: -300, CDT: -300, CST: -360, MDT: -360, MST: -420, PDT: -420, PST: -480 };
const MONTH_NAMES = "JanFebMarAprMayJunJulAugSepOctNovDec";
const WEEKDAY_NAMES = "SunMonTueWedThuFriSat";
const NUMERIC = /^-?\d+(\.\d+)?$/;

type Groups = (string | undefined)[];
const int = (text: string | undefined, missing = 0) => (text ? Number.parseInt(text, 10) : missing);

/** Hours, minutes, seconds and a fraction of a second; what is missing is 0. */
const timeOf = ([hour, minute, second, fraction]: Groups) => ({
  hour: int(hour),
  minute: int(minute),
  second: int(second),
  millisecond: fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0,
});

/** `Z`, an offset (`+09`, `+0900`, `-09:30`) or a zone name, in this order of groups. */
function zoneOf([utc, offsetHours, offsetMinutes, name]: Groups): Zone {
  if (name) return name;
  if (utc) return 0;
  if (!offsetHours) return undefined;
  return int(offsetHours) * 60 + (offsetHours.startsWith("-") ? -int(offsetMinutes) : int(offsetMinutes));
}

/** The time and zone groups that follow a date's in every pattern but RFC 2822's. */
const atTimeIn = (date: { year: number; month: number; day: number } | null, groups: Groups) =>
  date ? instantOf({ ...date, ...timeOf(groups.slice(0, 4)) }, zoneOf(groups.slice(4))) : Number.NaN;

/** Midnight UTC of a day, for counting days. */
const utcDay = (year: number, month: number, day: number) => utcTime({ year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 });

const dateOfUtcDay = (time: number) => {
  const date = new Date(time);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};

/** Monday of week 1, the week with the year's first Thursday (ISO 8601). */
function mondayOfWeekOne(weekYear: number) {
  const fourthOfJanuary = utcDay(weekYear, 1, 4);
  return fourthOfJanuary - ((new Date(fourthOfJanuary).getUTCDay() + 6) % 7) * DAY_MS;
}

function fromIsoWeek(weekYear: number, week: number, weekday: number) {
  const weeks = (mondayOfWeekOne(weekYear + 1) - mondayOfWeekOne(weekYear)) / WEEK_MS;
  if (week < 1 || week > weeks || weekday < 1 || weekday > 7) return null;
  return dateOfUtcDay(mondayOfWeekOne(weekYear) + ((week - 1) * 7 + weekday - 1) * DAY_MS);
}

function fromOrdinal(year: number, ordinal: number) {
  const first = utcDay(year, 1, 1);
  const days = (utcDay(year + 1, 1, 1) - first) / DAY_MS;
  return ordinal >= 1 && ordinal <= days ? dateOfUtcDay(first + (ordinal - 1) * DAY_MS) : null;
}

function readIso(text: string) {
  let match = ISO_CALENDAR_DATE.exec(text);
  if (match) return atTimeIn({ year: int(match[1]), month: int(match[2], 1), day: int(match[3], 1) }, match.slice(4));
  match = ISO_WEEK_DATE.exec(text);
  if (match) return atTimeIn(fromIsoWeek(int(match[1]), int(match[2]), int(match[3], 1)), match.slice(4));
  match = ISO_ORDINAL_DATE.exec(text);
  return match ? atTimeIn(fromOrdinal(int(match[1]), int(match[2])), match.slice(3)) : Number.NaN;
}

function readSql(text: string) {
  const match = SQL_DATE.exec(text);
  return match ? atTimeIn({ year: int(match[1]), month: int(match[2]), day: int(match[3]) }, match.slice(4)) : Number.NaN;
}

function readRfc2822(text: string) {
  // RFC 2822 allows comments and folded whitespace.
  const unfolded = text.replace(/\([^()]*\)|[\n\t]/g, " ").replace(/\s\s+/g, " ").trim();
  const match = RFC_2822_DATE.exec(unfolded);
  if (!match) return Number.NaN;
  const [, weekday, day, monthName, yearText, hour, minute, second, namedZone, militaryZ, offsetHours, offsetMinutes] = match;
  const shortYear = int(yearText);
  // Two-digit years as luxon reads them: 61–99 are 1900s, 00–60 2000s.
  const year = yearText.length === 2 ? shortYear + (shortYear > 60 ? 1900 : 2000) : shortYear;
  const clock = { year, month: MONTH_NAMES.indexOf(monthName) / 3 + 1, day: int(day), hour: int(hour), minute: int(minute), second: int(second), millisecond: 0 };
  if (weekday && new Date(utcDay(year, clock.month, clock.day)).getUTCDay() !== WEEKDAY_NAMES.indexOf(weekday) / 3) return Number.NaN;
  const zone = namedZone ? RFC_2822_ZONES[namedZone] : militaryZ ? 0 : zoneOf([undefined, offsetHours, offsetMinutes]);
  return instantOf(clock, zone);
}

const fromNumber = (value: number) => (Math.abs(value) < SECONDS_TIMESTAMP_LIMIT ? value * 1000 : value);

/**
 * Reads a timestamp the way the API sends them (SPEC §3): numbers below 1e12 are seconds, larger numbers milliseconds,
 * numeric strings the same; other strings are ISO 8601, RFC 2822 or SQL dates, and one without a zone is Tokyo time.
 * null for what cannot be read.
 */
export function parseTime(value: TimeInput): Date | null {
  let time: number;
  if (value instanceof Date) time = value.getTime();
  else if (typeof value === "number") time = fromNumber(value);
  else {
    const text = value.trim();
    if (NUMERIC.test(text)) time = fromNumber(Number(text));
    else {
      time = readIso(text);
      if (Number.isNaN(time)) time = readRfc2822(text);
      if (Number.isNaN(time)) time = readSql(text);
    }
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
  const date = parseTime(value);
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
  const date = parseTime(value);
  const base = parseTime(now);
  if (!date || !base) return INVALID;
  const elapsed = base.getTime() - date.getTime();
  if (elapsed < MINUTE_MS) return "たった今";
  if (elapsed >= WEEK_MS) return formatDate(date);
  const [unit, size] = RELATIVE_UNITS.find(([, size]) => elapsed >= size)!;
  return relativeFormat.format(-Math.trunc(elapsed / size), unit);
}

/** The day in Asia/Tokyo as `2026-11-22`, to group by day; empty for what cannot be read. */
export function tokyoDateKey(value: TimeInput) {
  const date = parseTime(value);
  return date ? isoDate(tokyoWallClock(date)) : "";
}

/** The value for a `<time dateTime>` attribute: `2026-11-22T21:30:00.000+09:00`; empty for what cannot be read. */
export function isoString(value: TimeInput) {
  const date = parseTime(value);
  if (!date) return "";
  const clock = tokyoWallClock(date);
  const offsetMinutes = Math.trunc((utcTime(clock) - date.getTime()) / MINUTE_MS);
  const offset = `${offsetMinutes < 0 ? "-" : "+"}${pad(Math.trunc(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${isoDate(clock)}T${pad(clock.hour)}:${pad(clock.minute)}:${pad(clock.second)}.${pad(clock.millisecond, 3)}${offset}`;
}
