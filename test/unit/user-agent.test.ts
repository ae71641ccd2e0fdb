import { describe, expect, it } from "vitest";
import { USER_AGENT_MAX } from "~/lib/constants";
import { cleanClientIp, cleanUserAgent, deviceLabel, parseUserAgent } from "~/lib/user-agent";

/** User-Agents as the browsers send them (2024–2025 versions). */
const AGENTS = {
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeAndroid: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  chromeIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  chromeOs: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  safariIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  safariIpad: "Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
  safariMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  firefoxAndroid: "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  firefoxIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
  edgeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70",
  operaWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
  samsungAndroid: "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  lineIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.9.0",
  playStation: "Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15",
  switch: "Mozilla/5.0 (Nintendo Switch; WifiWebAuthApplet) AppleWebKit/606.4 (KHTML, like Gecko) NF/6.0.1.15.4 NintendoBrowser/5.1.0.20393",
  xbox: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edge/44.18363.8131",
  headlessChrome: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
};

describe("a User-Agent as 「ブラウザ · 端末」 (「ログイン中の端末」)", () => {
  it.each([
    [AGENTS.chromeWindows, "Chrome · Windows"],
    [AGENTS.chromeMac, "Chrome · Mac"],
    [AGENTS.chromeAndroid, "Chrome · Android"],
    [AGENTS.chromeIphone, "Chrome · iPhone"],
    [AGENTS.chromeOs, "Chrome · ChromeOS"],
    [AGENTS.safariIphone, "Safari · iPhone"],
    [AGENTS.safariIpad, "Safari · iPad"],
    [AGENTS.safariMac, "Safari · Mac"],
    [AGENTS.firefoxAndroid, "Firefox · Android"],
    [AGENTS.firefoxLinux, "Firefox · Linux"],
    [AGENTS.firefoxIphone, "Firefox · iPhone"],
    [AGENTS.edgeWindows, "Edge · Windows"],
    [AGENTS.operaWindows, "Opera · Windows"],
    [AGENTS.samsungAndroid, "Samsung Internet · Android"],
    [AGENTS.lineIphone, "LINE · iPhone"],
    [AGENTS.playStation, "Safari · PlayStation"],
    [AGENTS.switch, "Nintendo Browser · Nintendo Switch"],
    [AGENTS.xbox, "Edge · Xbox"],
    [AGENTS.headlessChrome, "Chrome · Linux"],
  ])("%s → %s", (userAgent, label) => {
    expect(deviceLabel(userAgent)).toBe(label);
  });

  it("says what it does not recognise, part by part", () => {
    expect(deviceLabel(null)).toBe("不明なブラウザ · 不明な端末");
    expect(deviceLabel("")).toBe("不明なブラウザ · 不明な端末");
    expect(deviceLabel("node")).toBe("不明なブラウザ · 不明な端末");
    expect(deviceLabel("curl/8.5.0")).toBe("不明なブラウザ · 不明な端末");
    expect(deviceLabel("Mozilla/5.0 (Windows NT 10.0) SomethingNew/1.0")).toBe("不明なブラウザ · Windows");
    expect(parseUserAgent("Mozilla/5.0 Firefox/133.0")).toEqual({ browser: "Firefox", system: null });
  });
});

describe("what a session keeps of its User-Agent and address", () => {
  it("drops control characters and lone surrogates, trims, and keeps nothing as null", () => {
    expect(cleanUserAgent(`  Mozilla/5.0\u0000 (X11;\u0007 Linux)\u009f\r\n `)).toBe("Mozilla/5.0 (X11; Linux)");
    expect(cleanUserAgent("a\ud800b\udfffc 🎮")).toBe("abc 🎮");
    expect(cleanUserAgent("\u0000\u0001 ")).toBeNull();
    expect(cleanUserAgent(undefined)).toBeNull();
    expect(cleanUserAgent("")).toBeNull();
  });

  it("cuts a long one to USER_AGENT_MAX characters, never between the halves of a pair", () => {
    expect(cleanUserAgent("x".repeat(5000))).toHaveLength(USER_AGENT_MAX);
    const cut = cleanUserAgent(`${"x".repeat(USER_AGENT_MAX - 1)}🎮🎮`)!;
    expect(Array.from(cut)).toHaveLength(USER_AGENT_MAX);
    expect(cut.endsWith("🎮")).toBe(true);
  });

  it("keeps an address as it is, a long or broken one cut and cleaned", () => {
    expect(cleanClientIp("203.0.113.7")).toBe("203.0.113.7");
    expect(cleanClientIp("2001:db8::1")).toBe("2001:db8::1");
    expect(cleanClientIp("1".repeat(300))).toHaveLength(64);
    expect(cleanClientIp("\u0000")).toBeNull();
  });
});
