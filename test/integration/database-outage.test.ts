import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { createBrowserMember } from "../support/auth";
import { freshGet } from "../support/fresh-request";
import { ownServersProblem, startOwnPostgres, type OwnPostgres } from "../support/postgres-servers";
import { startTestServer, type TestServer } from "../support/server";

/**
 * PostgreSQL stopped under a running app (issue 38, part 3): a signed-in gamer's requests are answered 503 with
 * `Retry-After` and the product's message, never 401 or a redirect to /login as if they had been signed out; a socket
 * handshake is told to come back later, not that its token is refused; `/readyz` says not ready; and once the server
 * is back, everything works again without restarting the app. On a PostgreSQL server of the test's own (initdb in a
 * temporary directory); the machine's shared server is never stopped. Run in the PostgreSQL pass only.
 */
const skipReason = !process.env.TEST_DATABASE_URL ? "the PostgreSQL pass runs it (TEST_DATABASE_URL is not set)" : ownServersProblem();
if (skipReason) console.log(`[database-outage] skipped: ${skipReason}`);

/** Every request during the outage is answered within this: none hangs. */
const ANSWERED_WITHIN_MS = 10_000;
/** Issue 38: everything works again within 5 s of the database's return. */
const RECOVERED_WITHIN_MS = 5_000;

describe.skipIf(skipReason)("the database stopped under a running app", () => {
  let postgres: OwnPostgres;
  let app: TestServer;
  let gamer: Awaited<ReturnType<typeof createBrowserMember>>;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    app = await startTestServer({ databaseAdminUrl: postgres.url });
    gamer = await createBrowserMember(app, "停止中のゲーマー");
  }, 120_000);
  afterAll(async () => {
    // The server first, while the database it closes is up again (the last test starts it).
    await app?.close();
    await postgres?.close();
  });

  it("answers 503 with Retry-After (a signed-in gamer too: not 401, not the login page), and works again once it is back", async () => {
    // Up: the gamer's API read and their page.
    expect((await gamer.api("/api/notifications?limit=5")).status).toBe(200);
    expect((await gamer.page("/mypage")).status).toBe(200);

    await postgres.stop();
    try {
      const started = Date.now();
      const api = await gamer.api("/api/notifications?limit=5");
      expect(Date.now() - started).toBeLessThan(ANSWERED_WITHIN_MS);
      expect(api.status).toBe(503);
      expect(api.headers.get("Retry-After")).toBe("5");
      expect(await api.json()).toEqual({ success: false, error: { code: "unavailable", message: messages.api.databaseUnavailable } });

      // The page with the login form's cookie: the product's message, not a redirect to /login.
      const page = await gamer.page("/mypage");
      expect(page.status).toBe(503);
      expect(page.headers.get("Location")).toBeNull();
      expect(page.headers.get("Retry-After")).toBe("5");
      const html = await page.text();
      expect(html).toContain(messages.error.unavailableTitle);
      expect(html).toContain(messages.api.databaseUnavailable);

      // A visitor's page and a public API read: 503, never a 500.
      const explore = await app.request("/explore");
      expect(explore.status).toBe(503);
      expect(explore.headers.get("Retry-After")).toBe("5");
      const listings = await app.request("/api/listings?limit=5");
      expect(listings.status).toBe(503);
      expect(listings.headers.get("Retry-After")).toBe("5");
      expect(await listings.json()).toEqual({ success: false, error: { code: "unavailable", message: messages.api.databaseUnavailable } });

      // A socket's handshake: come back later (the browser waits Retry-After), not "unauthorized" (it would drop the session).
      const socket = io(app.url, { auth: { token: gamer.token }, transports: ["websocket"], reconnection: false, forceNew: true });
      const refusal = await new Promise<Error & { data?: { retryAfter?: number } }>((resolve) => socket.once("connect_error", resolve));
      socket.close();
      expect(refusal.message).toBe(messages.api.databaseUnavailable);
      expect(refusal.data).toEqual({ retryAfter: 5 });

      const ready = await freshGet(`${app.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.json()).toMatchObject({ ok: false, db: "unavailable" });
    } finally {
      await postgres.start();
    }

    // Back: the pool connects again by itself.
    const back = Date.now();
    let status = 0;
    while (Date.now() - back < RECOVERED_WITHIN_MS) {
      status = (await gamer.api("/api/notifications?limit=5")).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status, `not answered 200 within ${RECOVERED_WITHIN_MS} ms of the database's return`).toBe(200);
    console.log(`[database-outage] answered 200 again ${Date.now() - back} ms after the database was back`);
    expect((await gamer.page("/mypage")).status).toBe(200);
    expect((await freshGet(`${app.url}/readyz`)).status).toBe(200);
  }, 60_000);
});
