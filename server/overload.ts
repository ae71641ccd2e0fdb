import { monitorEventLoopDelay } from "node:perf_hooks";
import type express from "express";
import type { Socket } from "socket.io";
import { log } from "../app/infra/logger.server";
import { OVERLOAD_DEFAULTS } from "../app/lib/constants";
import { messages } from "../app/lib/messages";

/**
 * Load shedding (ADR 011). A server past its capacity refuses new API work at once with 503 and
 * `Retry-After`, instead of queueing it until every request, /healthz and pages included, waits seconds.
 * Overloaded means: too many API requests already in progress, too many queries waiting for a database
 * connection (PGlite's one connection, or the pg pool), or an event loop running late on average (the server's
 * own thread is the bottleneck: requests wait before they are even read). Pages and /healthz are never refused; they only
 * wait behind a queue that the refusals keep short. The server recovers by itself as the queues drain.
 */
export interface OverloadGuard {
  /** For /api and /auth/v1: counts the request in progress, or answers 503 while overloaded. */
  middleware: express.RequestHandler;
  /** For Socket.IO handshakes: refused while overloaded, with `data.retryAfter` for the client. */
  socketMiddleware: (socket: Socket, next: (error?: Error) => void) => void;
  overloaded(): boolean;
  /** What a refusal tells the client to wait, in seconds. */
  retryAfterSeconds: number;
  /** What the decision is based on, for logs and tests. */
  load(): { inFlight: number; databaseQueue: number; eventLoopDelayMs: number };
  stop(): void;
}

export function createOverloadGuard({
  maxInFlight,
  maxDatabaseQueue,
  databaseQueue,
  maxEventLoopDelayMs = OVERLOAD_DEFAULTS.maxEventLoopDelayMs,
  retryAfterSeconds = OVERLOAD_DEFAULTS.retryAfterSeconds,
  onRefused,
}: {
  maxInFlight: number;
  maxDatabaseQueue: number;
  /** Queries waiting for a database connection right now. */
  databaseQueue: () => number;
  maxEventLoopDelayMs?: number;
  retryAfterSeconds?: number;
  /** Told of each refusal (the metrics count them). */
  onRefused?: (kind: "http" | "socket") => void;
}): OverloadGuard {
  let inFlight = 0;
  // The mean delay of the event loop over the last window: high when every turn of the loop is long. Only several
  // late windows in a row count, so one long pause (start-up, a big garbage collection) refuses nothing.
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  let eventLoopDelayMs = 0;
  let lateWindows = 0;
  const sampler = setInterval(() => {
    eventLoopDelayMs = Number.isFinite(delays.mean) ? delays.mean / 1e6 : 0;
    lateWindows = eventLoopDelayMs > maxEventLoopDelayMs ? lateWindows + 1 : 0;
    delays.reset();
  }, OVERLOAD_DEFAULTS.eventLoopWindowMs).unref();
  let refusedSinceLog = 0;
  let logTimer: NodeJS.Timeout | undefined;

  const overloaded = () =>
    inFlight >= maxInFlight || databaseQueue() >= maxDatabaseQueue || lateWindows >= OVERLOAD_DEFAULTS.lateWindows;

  // One line per second at most while refusing, so that an overload is visible without flooding the log.
  const noteRefusal = (kind: "http" | "socket") => {
    onRefused?.(kind);
    refusedSinceLog++;
    logTimer ??= setTimeout(() => {
      log.warn(
        { event: "overload", refused: refusedSinceLog, inFlight, databaseQueue: databaseQueue(), eventLoopDelayMs: Math.round(eventLoopDelayMs) },
        `overload: refused ${refusedSinceLog} requests in the last second`,
      );
      refusedSinceLog = 0;
      logTimer = undefined;
    }, 1000).unref();
  };

  return {
    middleware(req, res, next) {
      if (overloaded()) {
        noteRefusal("http");
        req.resume(); // the body is not wanted; let the connection be reused
        res
          .status(503)
          .set({ "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" })
          // The app's envelope (docs/product.md#api); the auth endpoints answer in the shape supabase-js reads.
          .json(
            req.baseUrl === "/auth/v1"
              ? { code: 503, error_code: "overloaded", msg: messages.api.overloaded }
              : { success: false, error: { code: "overloaded", message: messages.api.overloaded } },
          );
        return;
      }
      inFlight++;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        inFlight--;
      };
      res.once("finish", finish);
      res.once("close", finish);
      next();
    },
    socketMiddleware(_socket, next) {
      if (!overloaded()) return next();
      noteRefusal("socket");
      next(Object.assign(new Error(messages.api.overloaded), { data: { retryAfter: retryAfterSeconds } }));
    },
    overloaded,
    retryAfterSeconds,
    load: () => ({ inFlight, databaseQueue: databaseQueue(), eventLoopDelayMs }),
    stop() {
      clearInterval(sampler);
      delays.disable();
    },
  };
}
