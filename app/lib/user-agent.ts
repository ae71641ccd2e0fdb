import { CLIENT_IP_MAX, USER_AGENT_MAX } from "./constants";

/**
 * 「ログイン中の端末」 names each session by the browser and the system its User-Agent says (「Chrome · Windows」). A
 * few dozen lines rather than a parser library: only the browsers and systems a person would recognise are named
 * (the game consoles among them, for a gamers' site), and the label is a hint for the user, never a decision; the
 * libraries that know every engine and bot (ua-parser-js, bowser) would be tens of kilobytes for that.
 */

export const UNKNOWN_BROWSER = "不明なブラウザ";
export const UNKNOWN_SYSTEM = "不明な端末";

/**
 * The browsers, the first match winning: the ones built on Chrome or Safari say so in their User-Agent too
 * (Edge, Opera, Samsung Internet, LINE's in-app browser), so they come before Chrome and Safari.
 */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|OPT|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bLine\//, "LINE"],
  [/\bNintendoBrowser\//, "Nintendo Browser"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|CriOS|Chromium|HeadlessChrome)\//, "Chrome"],
  // Android's own WebView and old stock browser also say Safari; they say Android too, and say no Version/… Mobile Safari does.
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\b(MSIE |Trident\/)/, "Internet Explorer"],
];

/** The systems, the first match winning: an Xbox says Windows and a phone's browser may say Linux, so they come first. */
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bXbox\b/, "Xbox"],
  [/\bPlayStation\b/, "PlayStation"],
  [/\bNintendo Switch\b/, "Nintendo Switch"],
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\biPod\b/, "iPod"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "Mac"],
  [/\bLinux\b/, "Linux"],
];

const firstMatch = (table: ReadonlyArray<readonly [RegExp, string]>, userAgent: string) => table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

/** The browser and the system a User-Agent names, each null when it names none this knows. */
export function parseUserAgent(userAgent: string | null | undefined): { browser: string | null; system: string | null } {
  if (!userAgent) return { browser: null, system: null };
  return { browser: firstMatch(BROWSERS, userAgent), system: firstMatch(SYSTEMS, userAgent) };
}

/** 「Chrome · Windows」, 「Safari · iPhone」; 「不明なブラウザ · 不明な端末」 for what is not recognised. */
export function deviceLabel(userAgent: string | null | undefined) {
  const { browser, system } = parseUserAgent(userAgent);
  return `${browser ?? UNKNOWN_BROWSER} · ${system ?? UNKNOWN_SYSTEM}`;
}

/**
 * Header text as a session keeps it: without control characters (NUL, which PostgreSQL cannot store, among them)
 * and lone surrogates, trimmed and cut to `max`; null when nothing is left.
 */
function cleanHeaderText(value: string | null | undefined, max: number) {
  if (!value) return null;
  // By code point, so that a pair is kept or cut whole and a half of one standing alone is recognised as such.
  const kept = Array.from(value).filter((char) => !CONTROL.test(char) && !(char.length === 1 && SURROGATE.test(char)));
  const cleaned = Array.from(kept.join("").trim()).slice(0, max).join("").trimEnd();
  return cleaned === "" ? null : cleaned;
}
const CONTROL = /^[\u0000-\u001f\u007f-\u009f]$/;
const SURROGATE = /[\ud800-\udfff]/;

/** A User-Agent as a session keeps it (USER_AGENT_MAX characters at most). */
export const cleanUserAgent = (value: string | null | undefined) => cleanHeaderText(value, USER_AGENT_MAX);

/** A client address as a session keeps it (CLIENT_IP_MAX characters at most). */
export const cleanClientIp = (value: string | null | undefined) => cleanHeaderText(value, CLIENT_IP_MAX);
