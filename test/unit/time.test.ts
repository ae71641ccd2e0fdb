import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatDayHeading, formatRelative, formatTime, isoString, toTokyo } from "~/lib/time";

// 2026-11-22 12:30:00 UTC is 21:30 in Tokyo.
const UTC_MS = Date.UTC(2026, 10, 22, 12, 30, 0);

describe("toTokyo: the timestamp rule of SPEC §3", () => {
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
  });

  it("reads ISO, SQL and RFC 2822 date strings, and Dates", () => {
    expect(formatDateTime("2026-11-22T12:30:00Z")).toBe("2026/11/22 21:30");
    expect(formatDateTime("2026-11-22T21:30:00+09:00")).toBe("2026/11/22 21:30");
    expect(formatDateTime("2026-11-22 12:30:00+00")).toBe("2026/11/22 21:30");
    expect(formatDateTime("Sun, 22 Nov 2026 12:30:00 +0000")).toBe("2026/11/22 21:30");
    expect(formatDateTime(new Date(UTC_MS))).toBe("2026/11/22 21:30");
  });

  it("treats a date string without a zone as Tokyo time", () => {
    expect(formatDateTime("2026-11-22T21:30")).toBe("2026/11/22 21:30");
    expect(toTokyo("2026-11-22T21:30").toUTC().hour).toBe(12);
  });

  it("crosses the date line into Tokyo's next day", () => {
    expect(formatDate(Date.UTC(2026, 10, 22, 16, 0))).toBe("2026/11/23");
  });

  it("answers a dash for what it cannot read", () => {
    expect(formatDateTime("not a date")).toBe("—");
    expect(formatDateTime(Number.NaN)).toBe("—");
    expect(isoString("nope")).toBe("");
  });
});

describe("formatters", () => {
  it("formats time, day headings and ISO strings in Asia/Tokyo", () => {
    expect(formatTime(UTC_MS)).toBe("21:30");
    expect(formatDayHeading(UTC_MS)).toBe("11月22日(日)");
    expect(isoString(UTC_MS)).toBe("2026-11-22T21:30:00.000+09:00");
  });

  it("formats relative times in Japanese, falling back to the date after a week", () => {
    expect(formatRelative(UTC_MS - 30_000, UTC_MS)).toBe("たった今");
    expect(formatRelative(UTC_MS - 5 * 60_000, UTC_MS)).toBe("5 分前");
    expect(formatRelative(UTC_MS - 3 * 3600_000, UTC_MS)).toBe("3 時間前");
    expect(formatRelative(UTC_MS - 2 * 86400_000, UTC_MS)).toBe("2 日前");
    expect(formatRelative(UTC_MS - 8 * 86400_000, UTC_MS)).toBe("2026/11/14");
  });
});
