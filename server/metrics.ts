import { timingSafeEqual } from "node:crypto";
import type express from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * What a replica tells Prometheus (docs/product.md#operations), one registry per process: HTTP requests by route and status with
 * latency, open sockets, chat messages and their deliveries, the database pool, overload refusals, the sweeper, and
 * Node's own (memory, event-loop delay, from prom-client's default metrics). The gauges read their value when
 * scraped; the counters are moved where the thing happens.
 */
export interface Metrics {
  registry: Registry;
  httpRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  /** A chat message was stored and announced to `recipients` members (the sender's own sockets included). */
  chatMessage(recipients: number): void;
  overloadRefused(kind: "http" | "socket"): void;
  /** A sweeper run finished; `done` is how many rows each job acted on. */
  sweeperRan(done: Record<string, number>, at: Date): void;
}

export interface MetricsSources {
  openSockets(): number;
  database(): { inUse: number; waiting: number };
}

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: "gm_http_requests_total",
    help: "HTTP requests answered, by route (the Remix route id or the server's own path), method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "gm_http_request_duration_seconds",
    help: "Time from a request's arrival to its response's end, by route, method and status.",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: "gm_open_sockets",
    help: "Socket.IO connections open on this replica.",
    registers: [registry],
    collect() {
      this.set(sources.openSockets());
    },
  });
  const chatMessages = new Counter({ name: "gm_chat_messages_total", help: "Chat messages stored and announced by this replica.", registers: [registry] });
  const chatDeliveries = new Counter({
    name: "gm_chat_deliveries_total",
    help: "Members a stored chat message was sent to (on every replica, through the adapter), summed over messages.",
    registers: [registry],
  });
  new Gauge({
    name: "gm_db_pool_in_use",
    help: "Database connections running a query (PGlite: 1 while it works).",
    registers: [registry],
    collect() {
      this.set(sources.database().inUse);
    },
  });
  new Gauge({
    name: "gm_db_pool_waiting",
    help: "Queries waiting for a database connection.",
    registers: [registry],
    collect() {
      this.set(sources.database().waiting);
    },
  });
  const refusals = new Counter({
    name: "gm_overload_refusals_total",
    help: "Requests and socket handshakes refused with 503 because the replica was overloaded.",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  // Both series exist from the start at 0, so that a rate over them is defined before the first refusal.
  for (const kind of ["http", "socket"] as const) refusals.inc({ kind }, 0);
  const sweeperRows = new Counter({ name: "gm_sweeper_rows_total", help: "Rows the sweeper's jobs acted on, by job.", labelNames: ["job"] as const, registers: [registry] });
  let lastSweep: number | undefined;
  new Gauge({
    name: "gm_sweeper_lag_seconds",
    help: "Seconds since this replica's sweeper last finished a run (it runs every 30 s; much more means it is stuck).",
    registers: [registry],
    collect() {
      if (lastSweep !== undefined) this.set((Date.now() - lastSweep) / 1000);
    },
  });

  return {
    registry,
    httpRequest({ method, route, status }, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    chatMessage(recipients) {
      chatMessages.inc();
      chatDeliveries.inc(recipients);
    },
    overloadRefused(kind) {
      refusals.inc({ kind });
    },
    sweeperRan(done, at) {
      for (const [job, rows] of Object.entries(done)) sweeperRows.inc({ job }, rows);
      lastSweep = at.getTime();
    },
  };
}

/**
 * `GET /metrics` in Prometheus text, only for a caller presenting `METRICS_TOKEN` as a bearer token. Without the
 * token configured, or without the right one, the endpoint does not exist (404): nothing tells a stranger it is there.
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): express.RequestHandler {
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  return async (req, res, next) => {
    const given = Buffer.from(req.get("authorization") ?? "");
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) return next();
    try {
      res.set("Content-Type", metrics.registry.contentType).set("Cache-Control", "no-store").send(await metrics.registry.metrics());
    } catch (error) {
      next(error);
    }
  };
}
