// @ts-check
// What a browser fetches on a first visit: every script a page loads until the network has been idle, counted
// as the server sends it. Shared by `npm run bench:first-load` (test/perf/first-load.mjs) and the budget checks of the
// e2e suite (test/e2e/page-sweep.spec.ts, and first-load.spec.ts for /login/mfa), so the figure the README quotes and
// the one CI enforces are the same count.
import http from "node:http";

/** Kilobytes (1,024 bytes) of gzip'd JavaScript a first visit may fetch. */
export const FIRST_LOAD_BUDGET_KB = { signedOut: 100, signedIn: 120 };

/** The demo account the signed-in column is measured as: it has rooms, bookings, posts and coins (server/db/seed.ts). */
export const DEMO_ACCOUNT = { email: "minato@demo.gamermatch.jp", password: "gamermatch-demo" };

/**
 * Every page of the route table of docs/product.md#screens (one concrete URL each, found in the demo data) and the pages a visitor meets on
 * the way (login, sign-up, tickets, coins). `ids` comes from {@link findDemoIds}.
 * @param {DemoIds} ids
 * @returns {{ path: string, signedIn: boolean, signedOut: boolean }[]}
 */
export function firstLoadPages(ids) {
  const both = (/** @type {string} */ path) => ({ path, signedIn: true, signedOut: true });
  // Guarded pages send a visitor to /login, which has its own row.
  const member = (/** @type {string} */ path) => ({ path, signedIn: true, signedOut: false });
  const visitor = (/** @type {string} */ path) => ({ path, signedIn: false, signedOut: true });
  return [
    both("/"),
    both("/feed"),
    both("/explore"),
    both("/events"),
    both(`/events/${ids.eventId}`),
    both("/games"),
    both(`/games/${ids.gameSlug}`),
    both(`/community/${ids.communitySlug}`),
    both(`/u/${ids.uid}`),
    both(`/u/${ids.uid}/posts`),
    both(`/u/${ids.uid}/gallery`),
    both("/tickets"),
    both(`/tickets/${ids.listingId}`),
    both("/coins"),
    // /login/mfa needs a sign-in that owes its second step: test/e2e/first-load.spec.ts makes one for it
    visitor("/login"),
    visitor("/signup"),
    member("/chat"),
    member(`/chat/${ids.roomId}`),
    member("/mypage"),
    member("/mypage/schedule"),
    member("/mypage/footprints"),
    member("/mypage/gamer-edit"),
    member("/mypage/ticket-registration"),
    member("/notifications"),
    member("/settings"),
    member("/settings/security"),
    member("/settings/coin-history"),
    member("/settings/subscription"),
    member("/settings/store/transfer"),
    member("/settings/store/subscription"),
    member("/settings/ticket-management"),
    member(`/coins/checkout/${ids.coinPackageId}`),
    both("/support"),
    both("/terms"),
    both("/privacy"),
    both("/inquiry"),
    both("/transaction-act"),
  ];
}

/**
 * @typedef {{ eventId: string, gameSlug: string, communitySlug: string, coinPackageId: string }} PublicIds
 * @typedef {PublicIds & { uid: string, listingId: string, roomId: string }} DemoIds
 * @typedef {import("@playwright/test").APIRequestContext} Request
 * @typedef {import("@playwright/test").BrowserContext} BrowserContext
 * @typedef {{ url: string, file: string }} FetchedScript
 * @typedef {{ path: string, status: number, scripts: FetchedScript[] }} PageLoad
 */

/**
 * Reads the ids the page list needs off the demo data, the way a person finds them: the first link of each kind on the
 * pages that list them. `request` must be signed in as {@link DEMO_ACCOUNT} (for the chat room).
 * @param {Request} request
 * @returns {Promise<DemoIds>}
 */
export async function findDemoIds(request) {
  return {
    ...(await findPublicIds(request)),
    uid: await firstMatch(request, "/explore", /href="\/u\/([^"?/]+)"/),
    listingId: await firstMatch(request, "/explore", /href="\/tickets\/([^"?/]+)"/),
    roomId: await firstMatch(request, "/chat", /href="\/chat\/([^"?/]+)"/),
  };
}

/**
 * The ids of what every database has from its first start, demo accounts or not (games, their communities, events,
 * coin packages): the e2e suite's server has no demo accounts, so its budget test makes the people, ticket and chat
 * room itself and reads only these.
 * @param {Request} request
 * @returns {Promise<PublicIds>}
 */
export async function findPublicIds(request) {
  const gameSlug = await firstMatch(request, "/games", /href="\/games\/([a-z0-9-]+)"/);
  return {
    gameSlug,
    eventId: await firstMatch(request, "/events", /href="\/events\/([0-9a-f-]{36}|\d+)"/),
    communitySlug: await firstMatch(request, `/games/${gameSlug}`, /href="\/community\/([^"?/]+)"/),
    coinPackageId: await firstMatch(request, "/coins", /href="\/coins\/checkout\/([^"?/]+)"/),
  };
}

/** The first capture of `pattern` in the HTML of `path`. */
async function firstMatch(/** @type {Request} */ request, /** @type {string} */ path, /** @type {RegExp} */ pattern) {
  const html = await (await request.get(path)).text();
  const match = pattern.exec(html);
  if (!match) throw new Error(`no ${pattern} on ${path}: is the demo data there?`);
  return match[1];
}

/** Signs a browser context in through the login form, as the e2e fixtures do. */
export async function signInContext(/** @type {BrowserContext} */ context, baseURL = "", account = DEMO_ACCOUNT) {
  const response = await context.request.post(`${baseURL}/login`, { form: { ...account, redirectTo: "/mypage" }, maxRedirects: 0 });
  if (response.status() !== 302) throw new Error(`signing in as ${account.email} answered ${response.status()}`);
}

/** A script the page fetched: its address and its file's name. */
export const scriptOf = (/** @type {import("@playwright/test").Request} */ request) => ({ url: request.url(), file: new URL(request.url()).pathname.split("/").pop() ?? "" });

/**
 * Loads `url` in a new page of `context` and records every script it fetches until no request has been in flight for
 * `idleMs` after the page hydrated; `status` is the document's, after redirects. Each script is then sized as the server
 * serves it (sizesOf).
 * @param {BrowserContext} context
 * @param {string} url
 * @param {{ idleMs?: number }} [options]
 * @returns {Promise<PageLoad & { page: import("@playwright/test").Page }>}
 */
export async function loadPage(context, url, options) {
  const page = await context.newPage();
  return { page, ...(await recordLoad(page, url, options)) };
}

/**
 * A first visit in a page that is already open, as {@link loadPage} makes one in a new context: the origin's cookies,
 * storage, service worker and cached files are cleared first (then `signIn`, when given, signs the context in again),
 * and the page fetches everything from the server, its browser's caches bypassed as DevTools' "Disable cache" does.
 * A new context per page cost Chromium a new renderer, about 1 s of CPU a page on the 2-core machine against 0.3 s in
 * one already open (ADR 061); what the page fetches is the same.
 * @param {import("@playwright/test").Page} page
 * @param {string} url
 * @param {{ idleMs?: number, signIn?: () => Promise<void> }} [options]
 * @returns {Promise<PageLoad>}
 */
export async function firstVisit(page, url, { signIn, ...options } = {}) {
  let session = sessions.get(page);
  if (!session) {
    session = await page.context().newCDPSession(page);
    await session.send("Network.enable");
    await session.send("Network.setCacheDisabled", { cacheDisabled: true });
    sessions.set(page, session);
  }
  // Off the app first, so that nothing of the last visit (a socket, a request at the idle's end) writes again: to a
  // plain text file of the same origin, which keeps the page's renderer (about:blank would not).
  await page.goto(new URL("/robots.txt", url).href);
  await session.send("Storage.clearDataForOrigin", { origin: new URL(url).origin, storageTypes: "all" });
  await session.send("Network.clearBrowserCache");
  if (signIn) await signIn();
  return recordLoad(page, url, options);
}
/** @type {WeakMap<import("@playwright/test").Page, import("@playwright/test").CDPSession>} */
const sessions = new WeakMap();

/**
 * @param {import("@playwright/test").Page} page
 * @param {string} url
 * @param {{ idleMs?: number }} [options]
 * @returns {Promise<PageLoad>}
 */
async function recordLoad(page, url, { idleMs = 2000 } = {}) {
  const idle = trackIdle(page);
  /** @type {FetchedScript[]} */
  const scripts = [];
  const onFinished = (/** @type {import("@playwright/test").Request} */ request) => {
    if (request.resourceType() === "script") scripts.push(scriptOf(request));
  };
  page.on("requestfinished", onFinished);
  try {
    const response = await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 30_000 });
    await idle.wait(idleMs);
    return { path: new URL(url).pathname, status: response?.status() ?? 0, scripts: [...scripts] };
  } finally {
    page.off("requestfinished", onFinished);
    idle.stop();
  }
}

/**
 * Waits until no request of the page has been in flight for `ms` (a WebSocket is no request); `stop` removes its
 * listeners from the page.
 * @param {import("@playwright/test").Page} page
 */
export function trackIdle(page) {
  let inFlight = 0;
  let lastChange = Date.now();
  const change = (/** @type {number} */ delta) => {
    inFlight += delta;
    lastChange = Date.now();
  };
  const started = () => change(1);
  const ended = () => change(-1);
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  return {
    async wait(/** @type {number} */ ms) {
      for (;;) {
        const quietFor = Date.now() - lastChange;
        if (inFlight <= 0 && quietFor >= ms) return;
        await new Promise((resolve) => setTimeout(resolve, inFlight <= 0 ? ms - quietFor : 50));
      }
    },
    stop() {
      page.off("request", started);
      page.off("requestfinished", ended);
      page.off("requestfailed", ended);
    },
  };
}

/**
 * The bytes of one asset as the server sends it with only this encoding accepted.
 * @param {string} url
 * @param {"gzip" | "br" | "identity"} encoding
 * @returns {Promise<{ bytes: number, encoding: string }>}
 */
export function servedSize(url, encoding) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": encoding } }, (response) => {
        let bytes = 0;
        response.on("data", (chunk) => (bytes += chunk.length));
        response.on("end", () => resolve({ bytes, encoding: response.headers["content-encoding"] ?? "identity" }));
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * Each script's size as served gzip'd and as brotli (when the server offers it): the budget is counted in gzip, the
 * encoding every browser accepts.
 * @param {FetchedScript[]} scripts
 */
export async function sizesOf(scripts) {
  return Promise.all(
    scripts.map(async (script) => {
      const [gzip, br] = await Promise.all([servedSize(script.url, "gzip"), servedSize(script.url, "br")]);
      return { ...script, gzip: gzip.bytes, br: br.encoding === "br" ? br.bytes : undefined };
    }),
  );
}

export const kb = (/** @type {number} */ bytes) => (bytes / 1024).toFixed(1);

/** The largest files first, as `name 12.3` (KB), for a line of a report. */
export function largest(/** @type {{ file: string, gzip: number }[]} */ scripts, count = 4) {
  return [...scripts]
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, count)
    .map((script) => `${script.file.replace(/-[\w-]{8}\.js$/, "")} ${kb(script.gzip)}`)
    .join(", ");
}
