import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import express from "express";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { createClient as createRedisClient } from "redis";
import { Server as SocketServer } from "socket.io";
import type { ViteDevServer } from "vite";
import { messages } from "../app/lib/messages";
import { listRoomIds } from "../app/models/chat.server";
import { createAuthService, type RequestInfo } from "./auth/session";
import type { AppConfig } from "./config";
import type { DatabaseHandle } from "./db";
import "./load-context";
import { createPayments } from "./payments";
import { startPresenceTracker, type PresenceTracker } from "./presence";
import { createOverloadGuard, type OverloadGuard } from "./overload";
import { attachRealtime, type Realtime } from "./realtime";
import { attachChatSend } from "./chat-socket";
import { createChatSender } from "../app/models/chat-sender.server";
import { CHAT_SEND_POSTGRES_CONCURRENCY } from "../app/lib/constants/chat";
import { createImageStorage, localUploadsDir } from "./storage";
import { startSweeper, type Sweeper } from "./sweeper";
import { bookingSweepJobs } from "../app/models/bookings.server";
import { subscriptionReminderJob } from "../app/models/subscriptions.server";
import { eventReminderJob } from "../app/models/events.server";
import { cspNonce, refuseCrossSiteWrites, securityHeaders } from "./security";

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
  /** How long shutdown waits for in-flight requests before cutting connections. */
  shutdownTimeoutMs?: number;
  /** The sweeper's clock (tests move it); the real time by default. */
  clock?: () => Date;
}

export interface AppServer {
  httpServer: http.Server;
  io: SocketServer;
  realtime: Realtime;
  presence: PresenceTracker;
  sweeper: Sweeper;
  overload: OverloadGuard;
  listen(port: number, host?: string): Promise<AddressInfo>;
  /** Stops accepting, lets in-flight requests finish, closes sockets, then the database. */
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
    redis.on("error", (error) => console.error("[redis]", error.message));
    await redis.connect();
  }
  const io = new SocketServer(httpServer, {
    path: "/socket.io",
    serveClient: false,
    ...(redis
      ? { adapter: createAdapter(redis), connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000 } }
      : {}),
  });

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

  const auth = await createAuthService({ config, db: database.db });
  const overload = createOverloadGuard({
    maxInFlight: config.OVERLOAD_MAX_IN_FLIGHT,
    maxDatabaseQueue: config.OVERLOAD_MAX_DB_QUEUE,
    databaseQueue: database.queueDepth,
  });
  // Before the realtime module's own middleware: an overloaded server does not spend a query on a handshake.
  io.use(overload.socketMiddleware);
  const payments = createPayments(config);
  const storage = createImageStorage(config);
  // The tracker needs the emitter and the emitter reports connections to the tracker.
  let presence: PresenceTracker | undefined;
  const realtime = attachRealtime(io, {
    authenticate: auth.authenticate,
    roomIdsOf: (userId) => listRoomIds({ db: database.db, userId }),
    onConnect: (userId) => presence!.connected(userId),
    onDisconnect: (userId) => presence!.disconnected(userId),
  });
  presence = startPresenceTracker({ db: database.db, realtime });
  // Every chat message people type, whether it comes over a socket, the API or the plain form, is stored by group
  // commit (ADR 026).
  const chat = createChatSender({ db: database.db, realtime, concurrency: database.engine === "postgres" ? CHAT_SEND_POSTGRES_CONCURRENCY : 1 });
  attachChatSend(io, { chat, overload });
  const sweeper = startSweeper({
    db: database.db,
    realtime,
    jobs: [...bookingSweepJobs({ feePercent: config.PLATFORM_FEE_PERCENT }), subscriptionReminderJob, eventReminderJob],
    clock: options.clock,
  });
  const requestInfo = (req: express.Request, res: express.Response): RequestInfo => ({
    origin: `${req.protocol}://${req.get("host")}`,
    cookieHeader: req.headers.cookie,
    authorization: req.headers.authorization,
    clientIp: req.ip ?? "unknown",
    appendSetCookie: (value) => res.append("Set-Cookie", value),
  });

  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  app.use(compression());
  app.use(cspNonce);
  app.use(securityHeaders({ development, supabaseUrl: config.SUPABASE_URL, stripeCheckout: payments.provider === "stripe" }));
  app.use(refuseCrossSiteWrites);
  app.use(discardUnreadBody);

  // Refused while overloaded (503 + Retry-After); pages and /healthz are not, they wait behind a short queue.
  app.use(["/api", "/auth/v1"], overload.middleware);

  app.get("/healthz", async (_req, res) => {
    const up = await database.ping();
    res.status(up ? 200 : 503).set("Cache-Control", "no-store").json({ ok: up, db: up ? "ok" : "unavailable" });
  });

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
  const { localAuth } = auth;
  if (localAuth) {
    app.use("/auth/v1", async (req, res, next) => {
      try {
        const response = await localAuth(toFetchRequest(req), { clientIp: req.ip ?? "unknown" });
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

  if (vite) {
    app.use(vite.middlewares);
  } else {
    const clientDir = options.clientDir ?? path.resolve("build/client");
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

  app.all(
    "*",
    createRequestHandler({
      build: getBuild,
      mode: development ? "development" : "production",
      getLoadContext: (req, res): AppLoadContext => ({
        db: database.db,
        io,
        config,
        cspNonce: res.locals.cspNonce,
        auth: auth.forRequest(requestInfo(req, res)),
        realtime,
        chat,
        payments,
        storage,
      }),
    }),
  );

  // Last resort for failures outside Remix (its own errors render the app's error page).
  app.use(((error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const status = Number(error?.status ?? error?.statusCode) || 500;
    if (status >= 500) console.error("[server]", error);
    res
      .status(status)
      .type("text/plain; charset=utf-8")
      .send(status === 404 ? "Not Found" : messages.error.body);
  }) satisfies express.ErrorRequestHandler);

  let closing: Promise<void> | undefined;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;

  return {
    httpServer,
    io,
    realtime,
    presence,
    sweeper,
    overload,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        httpServer.once("error", reject);
        // A long accept queue (the kernel caps it at net.core.somaxconn): under a burst, connections wait to be
        // taken in and answered (or refused, server/overload.ts) instead of being dropped, which makes the client
        // resend its SYN after 1, 3, 7 s. Node's default of 511 overflowed in bench:chat at 300 messages/s.
        httpServer.listen({ port, host, backlog: 4096 }, () => {
          httpServer.off("error", reject);
          resolve(httpServer.address() as AddressInfo);
        });
      });
    },
    close() {
      closing ??= (async () => {
        const forceClose = setTimeout(() => httpServer.closeAllConnections(), shutdownTimeoutMs);
        const drained = new Promise<void>((resolve) => {
          if (!httpServer.listening) return resolve();
          httpServer.close(() => resolve());
        });
        httpServer.closeIdleConnections();
        // Closes every socket's transport, so clients reconnect by themselves (to another replica, or to
        // this one once restarted). It closes the HTTP server too, which is already closing.
        await new Promise<void>((resolve) => io.close(() => resolve()));
        await drained;
        clearTimeout(forceClose);
        // After the sockets closed (their disconnects are not worth a write any more), before the database closes.
        await chat.drain();
        await presence.stop();
        await sweeper.stop();
        overload.stop();
        await vite?.close();
        await redis?.quit();
        await database.close();
      })();
      return closing;
    },
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

/**
 * A request answered without its whole body being read (a 401 to a large upload, a form refused early) leaves the
 * rest of the body in the connection, which then cannot serve its next request and is reset. Once the response is
 * sent, the rest is read and dropped, as Node does for bodies nobody started to read.
 */
function discardUnreadBody(req: express.Request, res: express.Response, next: express.NextFunction) {
  res.on("finish", () => {
    if (req.complete || req.destroyed) return;
    // A response that said Connection: close (a 413 upload) ends the connection instead: Node closes the socket.
    if (/\bclose\b/i.test(String(res.getHeader("Connection") ?? ""))) return;
    req.removeAllListeners("data");
    req.resume();
  });
  next();
}
