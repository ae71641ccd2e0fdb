import express from "express";
import type { DatabaseHandle } from "../../app/infra/db";
import { migrationsApplied } from "../db/migrate";
import { metricsEndpoint, type Metrics } from "../metrics";

/** /healthz, /readyz and /metrics: what the load balancer and the operator ask, answered while draining too. */
export function healthEndpoints({
  database,
  draining,
  metrics,
  metricsToken,
}: {
  database: DatabaseHandle;
  draining: () => boolean;
  metrics: Metrics;
  metricsToken: string | undefined;
}): express.Router {
  const health = express.Router();
  health.get("/healthz", async (_req, res) => {
    const up = await database.ping();
    res.status(up ? 200 : 503).set("Cache-Control", "no-store").json({ ok: up, db: up ? "ok" : "unavailable" });
  });

  // Whether a load balancer should send this replica work: the database answers, this build's migrations are all
  // applied, and it is not shutting down.
  health.get("/readyz", async (_req, res) => {
    const db = !draining() && (await database.ping());
    const migrations = db && (await migrationsApplied(database.db).catch(() => false));
    const ready = !draining() && db && migrations;
    res
      .status(ready ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ ok: ready, draining: draining(), db: db ? "ok" : draining() ? "unchecked" : "unavailable", migrations: migrations ? "ok" : "pending" });
  });

  health.get("/metrics", metricsEndpoint(metrics, metricsToken));
  return health;
}
