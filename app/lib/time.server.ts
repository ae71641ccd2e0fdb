import { DateTime } from "luxon";
import { DISPLAY_TIME_ZONE } from "./constants";
import { NUMERIC_TIME, readTime, type TimeInput } from "./time";

/** A date leads every ISO or SQL string we read: luxon would also read a bare time (`21:30`) as today's. */
const ISO_WITH_DATE = /^([+-]\d{6}|\d{4})/;

/**
 * Reads a timestamp as the API accepts them (docs/product.md#data): numbers below 1e12 are seconds, larger numbers milliseconds,
 * numeric strings the same; other strings are ISO 8601 (week and ordinal dates, an offset or a zone name), RFC 2822
 * or SQL dates, read by luxon; one without a zone is Tokyo time. null for what cannot be read.
 * Server only: the browser reads only the times the app wrote (readTime), and luxon stays out of its bundle (ADR 037).
 */
export function parseTime(value: TimeInput): Date | null {
  if (typeof value !== "string" || NUMERIC_TIME.test(value.trim())) return readTime(value);
  const text = value.trim();
  const options = { zone: DISPLAY_TIME_ZONE };
  const dated = ISO_WITH_DATE.test(text);
  const candidates = [
    dated ? DateTime.fromISO(text, options) : null,
    // RFC 2822 names UT beside GMT; luxon knows only GMT.
    DateTime.fromRFC2822(text.replace(/\sUT$/, " GMT"), options),
    dated ? DateTime.fromSQL(text, options) : null,
  ];
  const time = candidates.find((candidate) => candidate?.isValid);
  return time ? time.toJSDate() : null;
}
