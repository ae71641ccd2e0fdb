import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { createOverloadGuard } from "../../server/overload";

/** An Express app behind the guard whose one route holds each request until the test lets it go. */
async function guardedApp({ maxInFlight = 2, databaseQueue = (): number => 0 } = {}) {
  const guard = createOverloadGuard({ maxInFlight, maxDatabaseQueue: 3, databaseQueue });
  closers.push(async () => guard.stop());
  const held: Array<() => void> = [];
  const app = express();
  app.use("/api", guard.middleware);
  app.post("/api/work", (_req, res) => {
    held.push(() => res.status(201).json({ ok: true }));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/work`;
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const waitForHeld = async (n: number) => {
    while (held.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { guard, held, url, waitForHeld, post: () => fetch(url, { method: "POST", body: "{}" }) };
}
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe("overload guard", () => {
  it("refuses work beyond the requests in progress with 503, Retry-After and a Japanese message, and takes work again as they finish", async () => {
    const { guard, held, post, waitForHeld } = await guardedApp({ maxInFlight: 2 });
    const first = [post(), post()];
    await waitForHeld(2);
    expect(guard.load().inFlight).toBe(2);

    const refused = await post();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect(await refused.json()).toEqual({ success: false, error: { code: "overloaded", message: messages.api.overloaded } });

    held.shift()!();
    expect((await first[0]!).status).toBe(201);
    const third = post();
    await waitForHeld(2);
    held.splice(0).forEach((release) => release());
    expect((await first[1]!).status).toBe(201);
    expect((await third).status).toBe(201);
    expect(guard.load().inFlight).toBe(0);
  });

  it("counts a request whose client went away as finished", async () => {
    const { guard, url, waitForHeld } = await guardedApp({ maxInFlight: 1 });
    const controller = new AbortController();
    const gone = fetch(url, { method: "POST", signal: controller.signal }).catch(() => "aborted");
    await waitForHeld(1);
    controller.abort();
    expect(await gone).toBe("aborted");
    await expect.poll(() => guard.load().inFlight).toBe(0);
  });

  it("refuses API work and socket handshakes while the database queue is deep", async () => {
    let queue = 0;
    const { guard, post } = await guardedApp({ maxInFlight: 100, databaseQueue: () => queue });
    queue = 3;
    expect(guard.overloaded()).toBe(true);
    expect((await post()).status).toBe(503);
    const handshake = await new Promise<Error | undefined>((resolve) => guard.socketMiddleware({} as never, resolve));
    expect(handshake?.message).toBe(messages.api.overloaded);
    expect((handshake as Error & { data: unknown }).data).toEqual({ retryAfter: 1 });

    queue = 2;
    expect(guard.overloaded()).toBe(false);
    const admitted = await new Promise<Error | undefined>((resolve) => guard.socketMiddleware({} as never, resolve));
    expect(admitted).toBeUndefined();
  });

  it("refuses while the event loop runs late window after window, and takes work again once it keeps time", async () => {
    const guard = createOverloadGuard({ maxInFlight: 100, maxDatabaseQueue: 100, databaseQueue: () => 0, maxEventLoopDelayMs: 50 });
    closers.push(async () => guard.stop());
    // Turns of 150 ms each, back to back, for over three sampling windows: a saturated thread.
    const until = performance.now() + 2200;
    while (performance.now() < until) {
      const turn = performance.now() + 150;
      while (performance.now() < turn);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(guard.load().eventLoopDelayMs).toBeGreaterThan(50);
    expect(guard.overloaded()).toBe(true);
    await expect.poll(() => guard.overloaded(), { timeout: 3000 }).toBe(false);
  });

  it("does not refuse for one long pause", async () => {
    const guard = createOverloadGuard({ maxInFlight: 100, maxDatabaseQueue: 100, databaseQueue: () => 0, maxEventLoopDelayMs: 50 });
    closers.push(async () => guard.stop());
    const until = performance.now() + 1500;
    while (performance.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(guard.load().eventLoopDelayMs).toBeLessThan(50);
    expect(guard.overloaded()).toBe(false);
  });
});
