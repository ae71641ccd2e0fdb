import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable, type Duplex } from "node:stream";
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import { createRequestHandler as createRemixRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import { createClient as createRedisClient } from "redis";
import { Server as SocketServer } from "socket.io";
import type { ViteDevServer } from "vite";
import { createAuthService, type AuthUser, type RequestAuth, type RequestInfo } from "../app/infra/auth/session";
import type { AppConfig } from "../app/infra/config";
import type { DatabaseHandle } from "../app/infra/db";
import { databaseUnavailable, isConnectionError } from "../app/infra/db/errors";
import { openReadReplica } from "../app/infra/db/read-replica";
import { createDiscordClient } from "../app/infra/discord";
import { log } from "../app/infra/logger.server";
import { createPayments } from "../app/infra/payments";
import { attachRealtime, type Realtime } from "../app/infra/realtime";
import { createImageStorage, localUploadsDir } from "../app/infra/storage";
import { CHAT_SEND_POSTGRES_CONCURRENCY, SOCKET_MOVE } from "../app/lib/constants/chat";
import { OFFLINE_PAGE_PATH, SERVICE_WORKER_PATH } from "../app/lib/constants/installed-app";
import { messages } from "../app/lib/messages";
import { offlinePageHtml } from "../app/lib/offline-page";
import { RealtimeEvent } from "../app/lib/realtime-events";
import "../app/load-context";
import { bookingReminderJob, bookingSweepJobs } from "../app/models/bookings.server";
import { chatDigestJob } from "../app/models/chat-digest.server";
import { createChatSender } from "../app/models/chat-sender.server";
import { listRoomIds } from "../app/models/chat-rooms.server";
import { eventReminderJob } from "../app/models/events.server";
import { SESSIONS_ENDED_CHANNEL } from "../app/models/moderation.server";
import { subscriptionReminderJob } from "../app/models/subscriptions.server";
import { createLocalAuthHandler } from "./auth/local-auth";
import { discardUnreadBody } from "./body-limit";
import { answeringDatabaseDown } from "./database-down";
import { attachChatSend } from "./chat-socket";
import { migrationsApplied } from "./db/migrate";
import { slowQueryOf } from "./db/prepare";
import { startMailService, type MailService } from "./mail/service";
import { startPushService, type PushService } from "./push/service";
import { createMetrics, metricsEndpoint, type Metrics } from "./metrics";
import { createOverloadGuard, type OverloadGuard } from "./overload";
import { createReadRouting } from "./read-routing";
import { startPresenceTracker, type PresenceTracker } from "./presence";
import { requestLog, routeLabels } from "./request-log";
import { attachRoomFocus } from "./room-focus";
import { cspNonce, inlineOnlyPolicy, refuseCrossSiteWrites, refuseHostLikePaths, refuseUnstorableUrls, securityHeaders } from "./security";
import { startSweeper, type Sweeper } from "./sweeper";

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
   * steps after it a replica is gone within the 10 s an orchestrator gives it (PRODUCT §11).
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
   * The graceful shutdown (PRODUCT §11): refuses new requests and sockets at once (503, /readyz too), lets the requests
   * in progress finish, stops listening, closes the sockets' transports so that clients reconnect (to another
   * replica), then stops the sweeper and the mail sender and closes Redis and the database.
   */
  close(): Promise<void>;
}

export async function createAppServer(options: AppServerOptions): Promise<AppServer> {
  const { config, database } = options;
  const development = !options.build;
  const app = express();
  const httpServer = http.createServer(app);
  // With Redis, events fan out to every replica through a Redis stream, and a socket that reconnects
  // within two minutes gets what it missed (connection state recovery). Without it, one process.
  const redis = config.REDIS_URL ? createRedisClient({ url: config.REDIS_URL }) : undefined;
  if (redis) {
    redis.on("error", (error) => log.error({ err: error }, "redis: connection error"));
    await redis.connect();
  }
  // Set when shutdown begins (close()): new requests and socket handshakes are refused from then on.
  let draining = false;
  const io = new SocketServer(httpServer, {
    path: "/socket.io",
    serveClient: false,
    // A draining replica takes no new sockets: the handshake fails at the transport and the client tries again, by
    // then on another replica (the load balancer saw /readyz fail, or found the port closed).
    allowRequest: (_req, callback) => callback(draining ? "draining" : null, !draining),
    ...(redis
      ? { adapter: createAdapter(redis), connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000 } }
      : {}),
  });

  refuseHandshakesWhileDraining(httpServer, () => draining);

  let vite: ViteDevServer | undefined;
  let getBuild: () => Promise<ServerBuild>;
  if (options.build) {
    const build = options.build;
    getBuild = async () => build;
  } else {
    const { createServer } = await import("vite");
    vite = await createServer({ server: { middlewareMode: true, hmr: { server: httpServer } } });
    getBuild = () => vite!.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
  }

  // Links in mails: SITE_URL, or this server on localhost (its port is known once it listens).
  let boundPort: number | undefined;
  const siteUrl = () => config.SITE_URL ?? `http://localhost:${boundPort ?? config.PORT}`;
  const mail = await startMailService({ config, database, siteUrl, clock: options.clock });
  const push = await startPushService({ config, database, clock: options.clock });
  const metrics = createMetrics({
    openSockets: () => io.engine.clientsCount,
    database: () => ({ inUse: database.inUse(), waiting: database.queueDepth() }),
  });
  // Discordでログイン on the embedded auth (ADR 039); with hosted Supabase, Discord is configured there.
  const discord =
    !config.SUPABASE_URL && config.DISCORD_CLIENT_ID && config.DISCORD_CLIENT_SECRET
      ? createDiscordClient({
          clientId: config.DISCORD_CLIENT_ID,
          clientSecret: config.DISCORD_CLIENT_SECRET,
          baseUrl: config.DISCORD_URL,
          cdnUrl: config.DISCORD_CDN_URL,
          timeoutMs: config.DISCORD_TIMEOUT_MS,
        })
      : undefined;
  // Sessions that end (a new password, sign-out everywhere) close their sockets; the emitter exists a few lines on.
  const localAuth = config.SUPABASE_URL
    ? undefined
    : createLocalAuthHandler({
        db: database.db,
        jwtSecret: config.SUPABASE_JWT_SECRET!,
        confirmEmail: config.AUTH_CONFIRM_EMAIL,
        clock: options.clock,
        discord,
        siteUrl,
        redirectUrls: config.AUTH_REDIRECT_URLS,
        onSessionsEnded: (userId, ending) =>
          realtime.disconnectUser(userId, ending).catch((error) => log.error({ err: error, userId }, "auth: could not close the sockets of ended sessions")),
      });
  const auth = await createAuthService({ config, db: database.db, localAuth });
  const overload = createOverloadGuard({
    maxInFlight: config.OVERLOAD_MAX_IN_FLIGHT,
    maxDatabaseQueue: config.OVERLOAD_MAX_DB_QUEUE,
    databaseQueue: database.queueDepth,
    onRefused: (kind) => metrics.overloadRefused(kind),
  });
  // Before the realtime module's own middleware: an overloaded server does not spend a query on a handshake.
  io.use(overload.socketMiddleware);
  const payments = createPayments(config);
  // The heavy public reads' replica (ADR 040); on PGlite or without DATABASE_READ_URL every read is the primary's.
  const readReplica =
    config.DATABASE_READ_URL && database.engine === "postgres"
      ? await openReadReplica({ url: config.DATABASE_READ_URL, primary: database.db, poolMax: config.DATABASE_POOL_MAX, slowQuery: slowQueryOf(config) })
      : undefined;
  const readRouting = createReadRouting({ primary: database.db, replica: readReplica });
  const storage = createImageStorage(config);
  // The tracker needs the emitter and the emitter reports connections to the tracker.
  let presence: PresenceTracker | undefined;
  const realtime = attachRealtime(io, {
    authenticate: auth.authenticate,
    roomIdsOf: (userId) => listRoomIds({ db: database.db, userId }),
    onConnect: (userId) => presence!.connected(userId),
    onDisconnect: (userId) => presence!.disconnected(userId),
    onEmit: (event, userIds) => {
      if (event === RealtimeEvent.chatMessage) metrics.chatMessage(userIds.length);
    },
  });
  presence = startPresenceTracker({ db: database.db, realtime });
  // A suspension or ban is decided in another process (`npm run moderation`), which has no sockets: it notifies the
  // user's id in its transaction, and every server process closes that user's sockets when it commits (ADR 030).
  // Its connection lost and back (the database restarted), the listener heard nothing meanwhile: `caughtUp` below.
  let caughtUp: (() => void) | undefined;
  await database.listen(SESSIONS_ENDED_CHANNEL, (userId) => {
    if (userId) realtime.disconnectUser(userId).catch((error) => log.error({ err: error, userId }, "moderation: could not close a suspended user's sockets"));
    else caughtUp?.();
  });
  // Every chat message people type, whether it comes over a socket, the API or the plain form, is stored by group
  // commit (ADR 026).
  const chat = createChatSender({ db: database.db, realtime, concurrency: database.engine === "postgres" ? CHAT_SEND_POSTGRES_CONCURRENCY : 1 });
  attachChatSend(io, { chat, overload });
  attachRoomFocus(io, { db: database.db });
  const sweeper = startSweeper({
    db: database.db,
    realtime,
    jobs: [...bookingSweepJobs({ feePercent: config.PLATFORM_FEE_PERCENT }), bookingReminderJob, subscriptionReminderJob, eventReminderJob, chatDigestJob, mail.sweepJob, push.sweepJob],
    clock: options.clock,
    onRun: (done, at) => metrics.sweeperRan(done, at),
  });
  // The database is back after this process lost it (issue 38): the sockets of sessions that ended while no NOTIFY
  // could reach it (a suspension decided the moment the database returned) are closed, and the sweeper runs now, for
  // what fell due meanwhile, rather than at its next interval.
  caughtUp = () => {
    void sweeper.runOnce();
    const sockets = [...io.of("/").sockets.values()].filter((socket) => socket.data.user);
    auth
      .endedAmong(sockets.map((socket) => socket.data.user as AuthUser))
      .then((ended) => {
        const users = new Set(ended);
        for (const socket of sockets) if (users.has(socket.data.user as AuthUser)) socket.disconnect(true);
      })
      .catch((error) => log.error({ err: error }, "auth: could not check the sockets' sessions after the database's return"));
  };
  const requestInfo = (req: express.Request, res: express.Response): RequestInfo => ({
    origin: `${req.protocol}://${req.get("host")}`,
    cookieHeader: req.headers.cookie,
    authorization: req.headers.authorization,
    clientIp: req.ip ?? "unknown",
    appendSetCookie: (value) => res.append("Set-Cookie", value),
  });

  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  // First: every request gets its id, its log line and its count, the refused ones included.
  const routes = routeLabels(() => getBuild());
  app.use(routes.refresh, requestLog(metrics, routes.label));

  // While draining, only the health endpoints answer; everything else is refused with the connection closed, so
  // that the client (or the load balancer, which retries a 503 elsewhere) comes back to a replica that stays.
  let inFlight = 0;
  let allFinished: (() => void) | undefined;
  app.use((req, res, next) => {
    if (draining && !HEALTH_PATHS.has(req.path)) {
      res.set({ Connection: "close", "Retry-After": "1", "Cache-Control": "no-store" }).status(503);
      if (req.path.startsWith("/api/")) res.json({ success: false, error: { code: "unavailable", message: messages.api.restarting } });
      else res.type("text/plain; charset=utf-8").send(messages.api.restarting);
      return;
    }
    inFlight++;
    let counted = true;
    const finish = () => {
      if (!counted) return;
      counted = false;
      if (--inFlight === 0) allFinished?.();
    };
    res.once("finish", finish);
    res.once("close", finish);
    next();
  });
  app.use(readRouting.middleware);
  app.use(compression());
  app.use(cspNonce);
  app.use(
    securityHeaders({
      development,
      supabaseUrl: config.SUPABASE_URL,
      stripeCheckout: payments.provider === "stripe",
      discord: config.SUPABASE_URL || discord ? { origin: new URL(config.DISCORD_URL).origin, cdnOrigin: new URL(config.DISCORD_CDN_URL).origin } : undefined,
    }),
  );
  app.use(refuseCrossSiteWrites);
  app.use(refuseHostLikePaths);
  app.use(refuseUnstorableUrls);
  app.use(discardUnreadBody());

  // Refused while overloaded (503 + Retry-After); pages and /healthz are not, they wait behind a short queue.
  app.use(["/api", "/auth/v1"], overload.middleware);

  app.get("/healthz", async (_req, res) => {
    const up = await database.ping();
    res.status(up ? 200 : 503).set("Cache-Control", "no-store").json({ ok: up, db: up ? "ok" : "unavailable" });
  });

  // Whether a load balancer should send this replica work: the database answers, this build's migrations are all
  // applied, and it is not shutting down.
  app.get("/readyz", async (_req, res) => {
    const db = !draining && (await database.ping());
    const migrations = db && (await migrationsApplied(database.db).catch(() => false));
    const ready = !draining && db && migrations;
    res
      .status(ready ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ ok: ready, draining, db: db ? "ok" : draining ? "unchecked" : "unavailable", migrations: migrations ? "ok" : "pending" });
  });

  app.get("/metrics", metricsEndpoint(metrics, config.METRICS_TOKEN));

  // Uploaded images (ADR 017), named by their content's hash: they never change, so they are cached for a year.
  // Served as the image type of their name and never sniffed as anything else; a missing one is a 404, a folder too.
  if (!config.SUPABASE_URL) {
    app.use(
      "/uploads",
      express.static(localUploadsDir(config), {
        immutable: true,
        maxAge: "1y",
        fallthrough: false,
        index: false,
        redirect: false,
        dotfiles: "deny",
        setHeaders: (res, file) => {
          res.setHeader("X-Content-Type-Options", "nosniff");
          const type = UPLOAD_CONTENT_TYPES[path.extname(file)];
          if (type) res.setHeader("Content-Type", type);
        },
      }),
    );
  }

  // The Supabase Auth endpoints supabase-js talks to, when the app is its own auth server (PRODUCT §3).
  if (localAuth) {
    app.use("/auth/v1", async (req, res, next) => {
      try {
        // The database out of reach: 503 with Retry-After, as every other request then (issue 38), not a 500.
        const response = await localAuth(toFetchRequest(req), { clientIp: req.ip ?? "unknown" }).catch((error: unknown) => {
          if (!isConnectionError(error)) throw error;
          log.warn({ err: error, path: req.path }, "auth: the database is out of reach");
          return databaseUnavailable();
        });
        res.status(response.status);
        response.headers.forEach((value, key) => res.setHeader(key, value));
        res.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        next(error);
      }
    });
  }

  // The browser compares this with the build it runs to notice a new deployment (app/lib/build-version.ts).
  app.get("/builds/latest", async (_req, res, next) => {
    try {
      const build = await getBuild();
      res.set("Cache-Control", "no-store").json({ id: build.assets.version });
    } catch (error) {
      next(error);
    }
  });

  // The installed app (ADR 053): the page the service worker shows without a network, self-contained under a policy of
  // its own, and the worker, looked at afresh by every update check: the build's, or in development one without a shell.
  const offlinePage = offlinePageHtml();
  const offlinePolicy = inlineOnlyPolicy(offlinePage);
  app.get(OFFLINE_PAGE_PATH, (_req, res) => {
    res.set({ "Content-Security-Policy": offlinePolicy, "Cache-Control": "no-cache" }).type("html").send(offlinePage);
  });

  if (vite) {
    app.get(SERVICE_WORKER_PATH, async (_req, res, next) => {
      try {
        const { developmentServiceWorker } = await import("./build-service-worker.mjs");
        res.set("Cache-Control", "no-cache").type("js").send(await developmentServiceWorker({ offlinePage }));
      } catch (error) {
        next(error);
      }
    });
    app.use(vite.middlewares);
  } else {
    const clientDir = options.clientDir ?? path.resolve("build/client");
    app.get(SERVICE_WORKER_PATH, (_req, res, next) => {
      res.sendFile(path.join(clientDir, "sw.js"), { cacheControl: false, headers: { "Cache-Control": "no-cache" } }, (error) => error && next(error));
    });
    // Vite fingerprints everything under assets/: cache it for a year. Anything else may change between deploys.
    // Each asset also lies compressed beside itself (server/build.mjs): brotli where the browser takes it, else gzip.
    app.use(
      "/assets",
      expressStaticGzip(path.join(clientDir, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gz"],
        index: false,
        serveStatic: { immutable: true, maxAge: "1y", fallthrough: false },
      }),
    );
    app.use(express.static(clientDir, { maxAge: "1h" }));
  }

  // Remix through @remix-run/express's own request and response conversions, with one step between them. Every
  // route's loader and action answers the database's absence with a thrown 503 (server/database-down.ts, issue 38);
  // what still ends as Remix's 500 for it (entry.server's handleError marks the context) gets the API's 503 envelope
  // with Retry-After here, and a page its 503 in entry.server.
  const handleRemixRequest = createRemixRequestHandler(async () => answeringDatabaseDown(await getBuild()), development ? "development" : "production");
  app.all("*", async (req, res, next) => {
    try {
      const loadContext: AppLoadContext = {
        db: database.db,
        readDb: readRouting.readDbFor(req),
        io,
        config,
        cspNonce: res.locals.cspNonce,
        auth: withUserInLog(auth.forRequest(requestInfo(req, res)), res),
        realtime,
        chat,
        payments,
        storage,
      };
      const response = await handleRemixRequest(createRemixRequest(req, res), loadContext);
      const databaseDown = loadContext.databaseDown && response.status >= 500 && req.path.startsWith("/api/");
      await sendRemixResponse(res, databaseDown ? databaseUnavailable() : response);
    } catch (error) {
      next(error);
    }
  });

  // Last resort for failures outside Remix (its own errors render the app's error page).
  app.use(((error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const status = Number(error?.status ?? error?.statusCode) || 500;
    // pino-http logs the failed request with this error (res.err) as its line.
    if (status >= 500) res.err = error;
    res
      .status(status)
      .type("text/plain; charset=utf-8")
      .send(status === 404 ? "Not Found" : messages.error.body);
  }) satisfies express.ErrorRequestHandler);

  let closing: Promise<void> | undefined;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 9_000;
  const shutdownGraceMs = options.shutdownGraceMs ?? config.SHUTDOWN_GRACE_MS;

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
    draining: () => draining,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        httpServer.once("error", reject);
        // A long accept queue (the kernel caps it at net.core.somaxconn): under a burst, connections wait to be
        // taken in and answered (or refused, server/overload.ts) instead of being dropped, which makes the client
        // resend its SYN after 1, 3, 7 s. Node's default of 511 overflowed in bench:chat at 300 messages/s.
        httpServer.listen({ port, host, backlog: 4096 }, () => {
          httpServer.off("error", reject);
          const address = httpServer.address() as AddressInfo;
          boundPort = address.port;
          resolve(address);
        });
      });
    },
    close() {
      closing ??= (async () => {
        draining = true;
        const started = Date.now();
        log.info({ event: "shutdown", inFlight }, `shutdown: draining, ${inFlight} requests in progress`);
        // Kept-alive connections with nothing in progress close now; their clients' next request opens a new one.
        httpServer.closeIdleConnections();
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, shutdownTimeoutMs).unref());
        // A rolling deploy nobody sees (ADR 048). First out of rotation: /readyz fails from now on, and the load
        // balancer stops sending new connections here within the grace; the sockets open here go on as before.
        if (shutdownGraceMs > 0) await Promise.race([new Promise<void>((resolve) => setTimeout(resolve, shutdownGraceMs).unref()), deadline]);
        // Then the sockets are told to move: each client reconnects at once, through the load balancer to a replica
        // that stays, and recovers its session there (Redis keeps it). In waves, so that the replica taking them in
        // is not asked for every handshake and catch-up at once (it would refuse some as overloaded, and those
        // clients would wait a second or two). Each socket on its own: a broadcast would carry an offset that the
        // recovery then looks for in vain. Those still here `SOCKET_MOVE.waitMs` after the last wave are cut below.
        const toMove = [...io.of("/").sockets.values()];
        const perWave = Math.max(SOCKET_MOVE.least, Math.ceil(toMove.length / SOCKET_MOVE.most));
        for (let from = 0; from < toMove.length; from += perWave) {
          if (from > 0) await new Promise((resolve) => setTimeout(resolve, SOCKET_MOVE.gapMs));
          for (const socket of toMove.slice(from, from + perWave)) if (socket.connected) socket.emit(RealtimeEvent.move);
        }
        const moved = new Promise<void>((resolve) => {
          const check = setInterval(() => {
            if (io.engine.clientsCount > 0) return;
            clearInterval(check);
            resolve();
          }, 50);
          setTimeout(() => {
            clearInterval(check);
            resolve();
          }, SOCKET_MOVE.waitMs).unref();
        });
        const requestsDone = inFlight > 0 ? new Promise<void>((resolve) => (allFinished = resolve)) : Promise.resolve();
        await Promise.race([Promise.all([requestsDone, moved]), deadline]);
        log.info({ event: "shutdown", sockets: io.engine.clientsCount, ms: Date.now() - started }, "shutdown: sockets told to move");
        // Stop listening: a load balancer that still sends a request here finds the port closed and tries another
        // replica. Closing every socket's transport makes its client reconnect by itself, through the load balancer
        // to another replica (or to this one once restarted). io.close() closes the HTTP server too.
        httpServer.close();
        const closed = new Promise<void>((resolve) => io.close(() => resolve()));
        // Nothing is in progress any more (or the wait ran out): what is left are kept-alive connections, refusals
        // on their way out and long-polls, all of them cut now. io.close() resolves once the last connection is gone.
        httpServer.closeAllConnections();
        await Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref())]);
        log.info({ event: "shutdown", unfinished: inFlight, ms: Date.now() - started }, "shutdown: requests finished, sockets closed");
        // After the sockets closed (their disconnects are not worth a write any more), before the database closes.
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
      })();
      return closing;
    },
  };
}

/**
 * While draining, a new realtime session's handshake (a Socket.IO request without a session id, long polling or
 * WebSocket) is answered 503 before engine.io sees it (engine.io's own refusal is a 403), so that HAProxy tries it on
 * another replica (`retry-on 503`) and the client never sees the refusal: a long-polling browser moved by this replica
 * comes back with its replica cookie, which HAProxy honours while the replica lives (`option persist`, ADR 048).
 * Requests of sessions already open here go through.
 */
function refuseHandshakesWhileDraining(httpServer: http.Server, draining: () => boolean) {
  const isHandshake = (url = "") => url.startsWith("/socket.io/") && !/[?&]sid=/.test(url);
  const requestListeners = httpServer.listeners("request") as Array<(req: http.IncomingMessage, res: http.ServerResponse) => void>;
  httpServer.removeAllListeners("request");
  httpServer.on("request", (req, res) => {
    if (draining() && isHandshake(req.url)) {
      res
        .writeHead(503, { "Retry-After": "1", "Cache-Control": "no-store", Connection: "close", "Content-Type": "text/plain; charset=utf-8" })
        .end(messages.api.restarting);
      return;
    }
    for (const listener of requestListeners) listener.call(httpServer, req, res);
  });
  const upgradeListeners = httpServer.listeners("upgrade") as Array<(req: http.IncomingMessage, socket: Duplex, head: Buffer) => void>;
  httpServer.removeAllListeners("upgrade");
  httpServer.on("upgrade", (req, socket: Duplex, head: Buffer) => {
    if (draining() && isHandshake(req.url)) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nCache-Control: no-store\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    for (const listener of upgradeListeners) listener.call(httpServer, req, socket, head);
  });
}

/** What a draining replica still answers: the load balancer's and the operator's probes. */
const HEALTH_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** The request's auth, noting the signed-in user's id for the request's log line. */
function withUserInLog(auth: RequestAuth, res: express.Response): RequestAuth {
  return {
    ...auth,
    getUser: () =>
      auth.getUser().then((user) => {
        if (user) res.locals.userId = user.id;
        return user;
      }),
  };
}

const UPLOAD_CONTENT_TYPES: Record<string, string> = { ".jpg": "image/jpeg", ".png": "image/png", ".webp": "image/webp", ".gif": "image/gif" };

/** An Express request as a Fetch API Request (for handlers written against web standards). */
function toFetchRequest(req: express.Request): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.originalUrl, `${req.protocol}://${req.get("host")}`), {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}
