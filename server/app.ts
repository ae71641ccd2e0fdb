import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import type { Server as SocketServer } from "socket.io";
import type { AppConfig } from "../app/infra/config";
import type { DatabaseHandle } from "../app/infra/db";
import { openReadReplica } from "../app/infra/db/read-replica";
import { log } from "../app/infra/logger.server";
import { createPayments } from "../app/infra/payments";
import type { Realtime } from "../app/infra/realtime";
import { createImageStorage, LOCAL_UPLOADS_PATH } from "../app/infra/storage";
import { createAppAuth } from "./app/auth";
import { embeddedAuth } from "./app/auth-mount";
import { createDrainGate, refuseHandshakesWhileDraining } from "./app/draining";
import { requestGuards } from "./app/guards";
import { healthEndpoints } from "./app/health";
import { lastResortErrors } from "./app/last-resort";
import { catchUpAfterDatabaseReturn, startRealtime } from "./app/realtime";
import { loadRemixBuild } from "./app/remix-build";
import { remixRequestHandler } from "./app/remix-handler";
import { gracefulShutdown, listenOn } from "./app/shutdown";
import { connectRedis, createSocketServer } from "./app/socket-server";
import { clientFiles, installedApp, uploadedImages } from "./app/static-files";
import { startAppSweeper } from "./app/sweeps";
import { slowQueryOf } from "./db/prepare";
import { startMailService, type MailService } from "./mail/service";
import { createMetrics, type Metrics } from "./metrics";
import { createOverloadGuard, type OverloadGuard } from "./overload";
import type { PresenceTracker } from "./presence";
import { startPushService, type PushService } from "./push/service";
import { createReadRouting } from "./read-routing";
import { requestLog, routeLabels } from "./request-log";
import type { Sweeper } from "./sweeper";

export interface AppServerOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /**
   * The built Remix app (production and tests). Without it the server runs Vite in middleware
   * mode and loads the app from source (development).
   */
  build?: ServerBuild;
  /** Where the built browser assets are; defaults to build/client. */
  clientDir?: string;
  /**
   * How long shutdown waits for the requests in progress before cutting connections: 9 s, so that with the closing
   * steps after it a replica is gone within the 10 s an orchestrator gives it (docs/product.md#operations).
   */
  shutdownTimeoutMs?: number;
  /** How long shutdown fails /readyz, still serving, before it moves the sockets; SHUTDOWN_GRACE_MS by default. */
  shutdownGraceMs?: number;
  /** The sweeper's clock (tests move it); the real time by default. */
  clock?: () => Date;
}

export interface AppServer {
  httpServer: http.Server;
  io: SocketServer;
  realtime: Realtime;
  presence: PresenceTracker;
  sweeper: Sweeper;
  /** The mail outbox's sender (server/mail/service.ts). */
  mail: MailService;
  /** The push outbox's sender (server/push/service.ts). */
  push: PushService;
  overload: OverloadGuard;
  metrics: Metrics;
  /** Whether shutdown has begun: /readyz answers 503 and new requests and sockets are refused. */
  draining(): boolean;
  listen(port: number, host?: string): Promise<AddressInfo>;
  /**
   * The graceful shutdown (docs/product.md#operations): refuses new requests and sockets at once (503, /readyz too), lets the requests
   * in progress finish, stops listening, closes the sockets' transports so that clients reconnect (to another
   * replica), then stops the sweeper and the mail sender and closes Redis and the database.
   */
  close(): Promise<void>;
}

/**
 * The server: Express and Socket.IO over one HTTP server, composed of the parts in server/app/, in the order a request
 * meets them. Each part is one function in a file of its own; this one only wires them together.
 */
export async function createAppServer(options: AppServerOptions): Promise<AppServer> {
  const { config, database } = options;
  const app = express();
  const httpServer = http.createServer(app);
  const gate = createDrainGate();
  const redis = await connectRedis(config);
  const io = createSocketServer(httpServer, { redis, draining: gate.draining });
  refuseHandshakesWhileDraining(httpServer, gate.draining);
  const { getBuild, vite, development } = await loadRemixBuild(options.build, httpServer);

  // Links in mails: SITE_URL, or this server on localhost (its port is known once it listens).
  let boundPort: number | undefined;
  const siteUrl = () => config.SITE_URL ?? `http://localhost:${boundPort ?? config.PORT}`;
  const mail = await startMailService({ config, database, siteUrl, clock: options.clock });
  const push = await startPushService({ config, database, clock: options.clock });
  const metrics = createMetrics({
    openSockets: () => io.engine.clientsCount,
    database: () => ({ inUse: database.inUse(), waiting: database.queueDepth() }),
  });
  // Sessions that end (a new password, sign-out everywhere) close their sockets; the emitter exists a few lines on.
  const { auth, localAuth, discord } = await createAppAuth({
    config,
    database,
    clock: options.clock,
    siteUrl,
    onSessionsEnded: (userId, ending) =>
      realtime.disconnectUser(userId, ending).catch((error) => log.error({ err: error, userId }, "auth: could not close the sockets of ended sessions")),
  });
  const overload = createOverloadGuard({
    maxInFlight: config.OVERLOAD_MAX_IN_FLIGHT,
    maxDatabaseQueue: config.OVERLOAD_MAX_DB_QUEUE,
    databaseQueue: database.queueDepth,
    onRefused: (kind) => metrics.overloadRefused(kind),
  });
  const payments = createPayments(config);
  // The heavy public reads' replica (ADR 040); on PGlite or without DATABASE_READ_URL every read is the primary's.
  const readReplica =
    config.DATABASE_READ_URL && database.engine === "postgres"
      ? await openReadReplica({ url: config.DATABASE_READ_URL, primary: database.db, poolMax: config.DATABASE_POOL_MAX, slowQuery: slowQueryOf(config) })
      : undefined;
  const readRouting = createReadRouting({ primary: database.db, replica: readReplica });
  const storage = createImageStorage(config);
  // Its connection lost and back (the database restarted), the sessions-ended listener heard nothing meanwhile; what
  // is done then needs the sweeper, which starts after it.
  let databaseBack: (() => void) | undefined;
  const { realtime, presence, chat } = await startRealtime({ io, config, database, auth, metrics, overload, onDatabaseBack: () => databaseBack?.() });
  const sweeper = startAppSweeper({ config, database, realtime, storage, mail, push, metrics, clock: options.clock });
  databaseBack = catchUpAfterDatabaseReturn({ io, auth, sweeper });

  // The middleware, in the order a request meets it.
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  // First: every request gets its id, its log line and its count, the refused ones included.
  const routes = routeLabels(() => getBuild());
  app.use(routes.refresh, requestLog(metrics, routes.label));
  app.use(gate.middleware);
  app.use(readRouting.middleware);
  app.use(compression());
  app.use(requestGuards({ config, development, payments, discord }));
  // Refused while overloaded (503 + Retry-After); pages and /healthz are not, they wait behind a short queue.
  app.use(["/api", "/auth/v1"], overload.middleware);
  app.use(healthEndpoints({ database, draining: gate.draining, metrics, metricsToken: config.METRICS_TOKEN }));
  if (!config.SUPABASE_URL) app.use(LOCAL_UPLOADS_PATH, uploadedImages(config));
  if (localAuth) app.use("/auth/v1", embeddedAuth(localAuth));
  const clientDir = options.clientDir ?? path.resolve("build/client");
  app.use(installedApp({ getBuild, vite, clientDir }));
  app.use(clientFiles({ vite, clientDir }));
  app.all("*", remixRequestHandler({ getBuild, development, context: { db: database.db, readDbFor: readRouting.readDbFor, io, config, auth, realtime, chat, payments, storage } }));
  app.use(lastResortErrors);

  const close = gracefulShutdown({
    httpServer,
    io,
    gate,
    timeoutMs: options.shutdownTimeoutMs ?? 9_000,
    graceMs: options.shutdownGraceMs ?? config.SHUTDOWN_GRACE_MS,
    // After the sockets closed (their disconnects are not worth a write any more), before the database closes.
    closeServices: async () => {
      await chat.drain();
      await presence.stop();
      await sweeper.stop();
      await mail.close();
      await push.close();
      overload.stop();
      await vite?.close();
      await redis?.quit();
      await readReplica?.close();
      await database.close();
    },
  });

  return {
    httpServer,
    io,
    realtime,
    presence,
    sweeper,
    mail,
    push,
    overload,
    metrics,
    draining: gate.draining,
    async listen(port, host) {
      const address = await listenOn(httpServer, port, host);
      boundPort = address.port;
      return address;
    },
    close,
  };
}
