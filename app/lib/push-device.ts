import { messages } from "./messages";

/**
 * A device's name for its owner's list, from the User-Agent of the request that subscribed it: 「Chrome（Android）」.
 * Only the browser's and the system's names are kept, never the whole header.
 */
export function deviceLabel(userAgent: string | null | undefined) {
  const ua = userAgent ?? "";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPod/.test(ua)
      ? "iOS"
      : /iPad/.test(ua)
        ? "iPadOS"
        : /CrOS/.test(ua)
          ? "ChromeOS"
          : /Windows/.test(ua)
            ? "Windows"
            : /Macintosh|Mac OS X/.test(ua)
              ? "macOS"
              : /Linux/.test(ua)
                ? "Linux"
                : messages.push.unknownOs;
  const browser = /EdgA?\/|EdgiOS\/|Edg\//.test(ua)
    ? "Edge"
    : /SamsungBrowser\//.test(ua)
      ? "Samsung Internet"
      : /OPR\/|Opera/.test(ua)
        ? "Opera"
        : /Firefox\/|FxiOS\//.test(ua)
          ? "Firefox"
          : /CriOS\/|Chrome\/|Chromium\//.test(ua)
            ? "Chrome"
            : /Safari\//.test(ua)
              ? "Safari"
              : messages.push.unknownBrowser;
  return messages.push.deviceLabel(browser, os);
}
