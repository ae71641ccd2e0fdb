import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMinutes, suggestedStart, toDateTimeLocal } from "~/lib/booking-time";
import { formatDate, formatDateTime, formatDayHeading, formatRelative, formatTime, isoString, readTime, tokyoDateKey } from "~/lib/time";
import { parseTime } from "~/lib/time.server";

// 2026-11-22 12:30:00 UTC is 21:30 in Tokyo.
const UTC_MS = Date.UTC(2026, 10, 22, 12, 30, 0);

describe("parseTime: the timestamp rule of docs/product.md#data", () => {
  it("reads numbers below 1e12 as seconds", () => {
    expect(formatDateTime(UTC_MS / 1000)).toBe("2026/11/22 21:30");
    expect(formatDateTime(999_999_999_999)).toBe("33658/09/27 10:46");
  });

  it("reads numbers from 1e12 as milliseconds", () => {
    expect(formatDateTime(UTC_MS)).toBe("2026/11/22 21:30");
    expect(formatDateTime(1e12)).toBe("2001/09/09 10:46");
  });

  it("reads numeric strings by the same rule", () => {
    expect(formatDateTime(String(UTC_MS / 1000))).toBe("2026/11/22 21:30");
    expect(formatDateTime(String(UTC_MS))).toBe("2026/11/22 21:30");
    expect(formatDateTime(" 20261122 ")).toBe("1970/08/23 21:05");
  });

  it("reads ISO, SQL and RFC 2822 date strings, and Dates", () => {
    expect(formatDateTime("2026-11-22T12:30:00Z")).toBe("2026/11/22 21:30");
    expect(formatDateTime("2026-11-22T21:30:00+09:00")).toBe("2026/11/22 21:30");
    expect(formatDateTime(parseTime("2026-11-22 12:30:00+00")!)).toBe("2026/11/22 21:30");
    expect(formatDateTime(parseTime("Sun, 22 Nov 2026 12:30:00 +0000")!)).toBe("2026/11/22 21:30");
    expect(formatDateTime(new Date(UTC_MS))).toBe("2026/11/22 21:30");
  });

  it("treats a date string without a zone as Tokyo time", () => {
    expect(formatDateTime("2026-11-22T21:30")).toBe("2026/11/22 21:30");
    expect(parseTime("2026-11-22T21:30")?.getUTCHours()).toBe(12);
  });

  it("crosses the date line into Tokyo's next day", () => {
    expect(formatDate(Date.UTC(2026, 10, 22, 16, 0))).toBe("2026/11/23");
  });

  it("answers a dash for what it cannot read", () => {
    expect(formatDateTime("not a date")).toBe("—");
    expect(formatDateTime(Number.NaN)).toBe("—");
    expect(isoString("nope")).toBe("");
    expect(parseTime("nope")).toBeNull();
    expect(parseTime(Number.POSITIVE_INFINITY)).toBeNull();
    expect(parseTime(new Date(Number.NaN))).toBeNull();
  });
});

describe("readTime: the times the app writes, read alike on the server and in the browser", () => {
  const read = (text: string) => readTime(text)?.toISOString() ?? null;
  const instant = new Date(UTC_MS).toISOString();

  it("reads JSON's Dates, PostgreSQL's JSON timestamps, isoString's own and a datetime-local value", () => {
    expect(read("2026-11-22T12:30:00.000Z")).toBe(instant);
    expect(read("2026-11-22T12:30:00.123456+00:00")).toBe("2026-11-22T12:30:00.123Z");
    expect(read("2026-11-22T21:30:00.000+09:00")).toBe(instant);
    expect(read("2026-11-22T21:30")).toBe(instant);
    expect(read("2026-11-22")).toBe("2026-11-21T15:00:00.000Z");
    expect(read("+012026-11-22T12:30:00.000Z")).toBe("+012026-11-22T12:30:00.000Z");
  });

  it("leaves the API's other date strings to the server's parser: a dash, not a guess", () => {
    expect(readTime("2026-11-22 12:30:00+00")).toBeNull();
    expect(readTime("Sun, 22 Nov 2026 12:30:00 +0000")).toBeNull();
    expect(readTime("2026-W47-7T21:30")).toBeNull();
    expect(readTime("2026-11-22T21:30:00[Asia/Tokyo]")).toBeNull();
    expect(formatDateTime("2026-11-22 12:30:00+00")).toBe("—");
  });

  it("reads back every instant as JSON and isoString write it, and agrees with the server's parser", () => {
    // From 1900: before 1888 Tokyo kept its local mean time (+09:18:59), which an offset in whole minutes cannot write.
    const instants = fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true });
    fc.assert(
      fc.property(instants, (date) => {
        for (const text of [date.toISOString(), JSON.parse(JSON.stringify(date)) as string, isoString(date)]) {
          expect(readTime(text)?.getTime()).toBe(date.getTime());
          expect(parseTime(text)?.getTime()).toBe(date.getTime());
        }
      }),
    );
  });
});

describe("parseTime (server, luxon): the strings the API reads (fromISO, fromRFC2822, fromSQL)", () => {
  const read = (text: string) => parseTime(text)?.toISOString() ?? null;
  const instant = new Date(UTC_MS).toISOString();

  it("reads ISO 8601 calendar dates, extended and basic, with any precision", () => {
    expect(read("2026-11-22T21:30:00.000+09:00")).toBe(instant);
    expect(read("20261122T123000Z")).toBe(instant);
    expect(read("2026-11-22t12:30z")).toBe(instant);
    expect(read("2026-11-22T21")).toBe("2026-11-22T12:00:00.000Z");
    expect(read("2026-11-22T12:30:00,5Z")).toBe("2026-11-22T12:30:00.500Z");
    expect(read("2026-11-22T12:30:00.123456Z")).toBe("2026-11-22T12:30:00.123Z");
    expect(read("+002026-11-22T12:30Z")).toBe(instant);
  });

  it("reads ISO offsets as ±hh, ±hhmm and ±hh:mm, and a zone name in brackets over the offset", () => {
    expect(read("2026-11-22T21:30+09")).toBe(instant);
    expect(read("2026-11-22T18:00+0530")).toBe(instant);
    expect(read("2026-11-22T02:00-10:30")).toBe(instant);
    expect(read("2026-11-22T07:30:00-05:00[America/New_York]")).toBe(instant);
    expect(read("2026-11-22T07:30:00+09:00[America/New_York]")).toBe(instant);
    expect(read("2026-11-22T12:30[UTC]")).toBe(instant);
    expect(read("2026-11-22T12:30[Nowhere/Land]")).toBeNull();
  });

  it("reads ISO dates without a time as Tokyo midnight, and 24:00 as the end of the day", () => {
    expect(read("2026-11-22")).toBe("2026-11-21T15:00:00.000Z");
    expect(read("20261122T00")).toBe("2026-11-21T15:00:00.000Z");
    expect(read("2026-11")).toBe("2026-10-31T15:00:00.000Z");
    expect(read("2026-11-22T24:00")).toBe("2026-11-22T15:00:00.000Z");
  });

  it("reads ISO week and ordinal dates", () => {
    expect(read("2026-W47-7T21:30")).toBe(instant);
    expect(read("2026W477T21:30")).toBe(instant);
    expect(read("2026-W47")).toBe("2026-11-15T15:00:00.000Z");
    expect(read("2026-W53-1")).toBe("2026-12-27T15:00:00.000Z");
    expect(read("2025-W53-1")).toBeNull();
    expect(read("2026-326T21:30")).toBe(instant);
    expect(read("2026326T2130")).toBe(instant);
    expect(read("2026-366")).toBeNull();
  });

  it("reads SQL dates with or without an offset or a zone name", () => {
    expect(read("2026-11-22 12:30:00+00")).toBe(instant);
    expect(read("2026-11-22 12:30:00.5+00:00")).toBe("2026-11-22T12:30:00.500Z");
    expect(read("2026-11-22 21:30:00 +09:00")).toBe(instant);
    expect(read("2026-11-22 12:30:00 UTC")).toBe(instant);
    expect(read("2026-11-22 21:30:00 Asia/Tokyo")).toBe(instant);
    expect(read("2026-11-22 21:30:00")).toBe(instant);
    expect(read("2026-11-22 21:30")).toBe(instant);
    expect(read("2026-11-22 12:30:00 Nowhere/Land")).toBeNull();
  });

  it("reads RFC 2822 dates, with their obsolete zones, comments and two-digit years", () => {
    expect(read("Sun, 22 Nov 2026 12:30:00 +0000")).toBe(instant);
    expect(read("22 Nov 2026 21:30 +0900")).toBe(instant);
    expect(read("Sun, 22 Nov 2026 07:30:00 EST")).toBe(instant);
    expect(read("Sun, 22 Nov 2026 04:30:00 PST")).toBe(instant);
    expect(read("Sun, 22 Nov 2026 12:30:00 GMT")).toBe(instant);
    expect(read("Sun, 22 Nov 2026 12:30:00 UT")).toBe(instant);
    expect(read("Sun, 22 Nov 2026 12:30:00 Z")).toBe(instant);
    expect(read("Sun, 22 Nov 2026 (a comment)  12:30:00\t+0000")).toBe(instant);
    expect(read("Sun, 22 Nov 26 12:30:00 +0000")).toBe(instant);
    expect(read("Mon, 22 Nov 99 12:30:00 +0000")).toBe("1999-11-22T12:30:00.000Z");
    expect(read("Mon, 22 Nov 2026 12:30:00 +0000")).toBeNull();
  });

  it("refuses dates that do not exist, and a time without a date", () => {
    expect(read("2026-02-29")).toBeNull();
    expect(read("2028-02-29")).toBe("2028-02-28T15:00:00.000Z");
    expect(read("2026-13-01")).toBeNull();
    expect(read("2026-00-10")).toBeNull();
    expect(read("2026-11-22T25:00")).toBeNull();
    expect(read("2026-11-22T21:60")).toBeNull();
    expect(read("2026-11-22T21:30:60")).toBeNull();
    expect(read("31 Feb 2026 12:30 +0000")).toBeNull();
    expect(read("21:30")).toBeNull();
  });
});

describe("formatters", () => {
  it("formats time, day headings and ISO strings in Asia/Tokyo", () => {
    expect(formatTime(UTC_MS)).toBe("21:30");
    expect(formatDayHeading(UTC_MS)).toBe("11月22日(日)");
    expect(isoString(UTC_MS)).toBe("2026-11-22T21:30:00.000+09:00");
    expect(isoString(UTC_MS + 45)).toBe("2026-11-22T21:30:00.045+09:00");
    expect(isoString("+012026-11-22T21:30")).toBe("+012026-11-22T21:30:00.000+09:00");
    expect(formatDateTime("0099-01-02T03:04")).toBe("0099/01/02 03:04");
  });

  it("keys a moment by its day in Asia/Tokyo, for grouping", () => {
    expect(tokyoDateKey(UTC_MS)).toBe("2026-11-22");
    expect(tokyoDateKey(Date.UTC(2026, 10, 22, 15, 0))).toBe("2026-11-23");
    expect(tokyoDateKey("2026-11-22")).toBe("2026-11-22");
    expect(formatDayHeading(tokyoDateKey(UTC_MS))).toBe("11月22日(日)");
    expect(tokyoDateKey("nope")).toBe("");
  });

  it("formats relative times in Japanese, falling back to the date after a week", () => {
    expect(formatRelative(UTC_MS - 30_000, UTC_MS)).toBe("たった今");
    expect(formatRelative(UTC_MS - 5 * 60_000, UTC_MS)).toBe("5 分前");
    expect(formatRelative(UTC_MS - 3 * 3600_000, UTC_MS)).toBe("3 時間前");
    expect(formatRelative(UTC_MS - 2 * 86400_000, UTC_MS)).toBe("2 日前");
    expect(formatRelative(UTC_MS - 8 * 86400_000, UTC_MS)).toBe("2026/11/14");
  });

  it("counts whole units down, and calls the future and a bad base what they are", () => {
    expect(formatRelative(UTC_MS - 3600_000 + 1, UTC_MS)).toBe("59 分前");
    expect(formatRelative(UTC_MS - 7 * 86400_000 + 1, UTC_MS)).toBe("6 日前");
    expect(formatRelative(UTC_MS + 3600_000, UTC_MS)).toBe("たった今");
    expect(formatRelative(UTC_MS, "nope")).toBe("—");
  });
});

describe("booking times in Asia/Tokyo", () => {
  it("writes a datetime-local value in Tokyo time", () => {
    expect(toDateTimeLocal(UTC_MS)).toBe("2026-11-22T21:30");
    expect(toDateTimeLocal(new Date(Date.UTC(2026, 10, 22, 15, 5)))).toBe("2026-11-23T00:05");
  });

  it("suggests the full hour after one hour from now", () => {
    expect(suggestedStart(new Date(UTC_MS)).toISOString()).toBe("2026-11-22T14:00:00.000Z");
    expect(suggestedStart(new Date(Date.UTC(2026, 10, 22, 13, 0))).toISOString()).toBe("2026-11-22T15:00:00.000Z");
  });

  it("writes minutes as hours and minutes", () => {
    expect([30, 60, 90, 120, 150].map(formatMinutes)).toEqual(["30分", "1時間", "1時間30分", "2時間", "2時間30分"]);
  });
});
