import { randomUUID } from "node:crypto";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import type express from "express";
import { pinoHttp } from "pino-http";
import { log } from "../app/infra/logger.server";
import type { Metrics } from "./metrics";

/** A request id a caller (the load balancer, a client) may pass in: short, plain characters, else a new one. */
const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * One JSON line per request (docs/product.md#operations), when its response ends: method, path without the query (links carry
 * one-time tokens there), route, status, duration in ms, request id, and the user's id when the request was signed
 * in. The request id comes from `X-Request-Id` when the caller sent a usable one and is returned in it either way.
 * Each request is also counted in the metrics, by the same route label. Static assets are counted, not logged.
 */
export function requestLog(metrics: Metrics, routeOf: (req: express.Request) => string): express.RequestHandler[] {
  // The route label is read when the response ends (a route id is what the metrics can afford: a bounded set).
  const route = (req: express.Request, res: express.Response) => (res.locals.route ??= routeOf(req));
  return [
    pinoHttp({
      logger: log,
      genReqId(req, res) {
        const incoming = req.headers["x-request-id"];
        const id = typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      quietReqLogger: true,
      wrapSerializers: false,
      serializers: {
        req: (req: express.Request) => ({ method: req.method, path: (req.originalUrl ?? req.url).split("?")[0] }),
        res: (res: express.Response) => ({ status: res.statusCode }),
        err: (error: Error) => ({ type: error.name, message: error.message, stack: error.stack }),
      },
      customProps: (req, res) => (res.writableFinished || res.headersSent ? { route: route(req as express.Request, res as express.Response), userId: (res as express.Response).locals.userId } : {}),
      // A 503 is the server saying it is busy or going away (logged on its own), not a failure of the request.
      customLogLevel: (_req, res, error) => (error || (res.statusCode >= 500 && res.statusCode !== 503) ? "error" : res.statusCode === 503 ? "warn" : "info"),
      // pino-http makes up an error for every 5xx; only a real one (res.err, from the server's error handler) is kept.
      customErrorObject: (_req, res, _error, line) => ((res as express.Response).err ? line : { ...line, err: undefined }),
      customSuccessMessage: (req, res) => `${req.method} ${route(req as express.Request, res as express.Response)} ${res.statusCode}`,
      customErrorMessage: (req, res) => `${req.method} ${route(req as express.Request, res as express.Response)} ${res.statusCode}`,
      customAttributeKeys: { responseTime: "ms" },
      autoLogging: { ignore: (req) => /^\/(assets|uploads)\//.test(req.url ?? "") },
    }),
    (req, res, next) => {
      const started = process.hrtime.bigint();
      res.once("finish", () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        metrics.httpRequest({ method: req.method, route: route(req, res), status: res.statusCode }, seconds);
      });
      next();
    },
  ];
}

type RouteObject = Parameters<typeof matchRoutes>[0][number];

/** The server's own paths, named as themselves; everything else is the app's, named by its Remix route id. */
const SERVER_PATHS = ["/assets", "/uploads", "/auth/v1", "/healthz", "/readyz", "/metrics", "/builds/latest"];

/**
 * The label of a request: the server path it falls under, or the id of the Remix route that answers it (the deepest
 * match, e.g. `routes/_profile.u.$uid._index`), or `unmatched` (a 404).
 */
export function routeLabels(getBuild: () => Promise<ServerBuild>): { label: (req: express.Request) => string; refresh: express.RequestHandler } {
  // The tree of the build last seen: in production there is one; in development Vite may load a new one, which the
  // next request's refresh picks up (its label is read when it ends, by then the tree is there).
  let tree: RouteObject[] | undefined;
  let built: ServerBuild | undefined;
  return {
    refresh(_req, _res, next) {
      getBuild().then((build) => {
        if (build !== built) [built, tree] = [build, routeTree(build)];
      }, () => {});
      next();
    },
    label(req) {
      // The path as it came: inside a mounted handler (/auth/v1) req.path has lost its mount point.
      const path = (req.originalUrl ?? req.url).split("?")[0]!;
      const own = SERVER_PATHS.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
      if (own) return own;
      return (tree && matchRoutes(tree, path)?.at(-1)?.route.id) ?? "unmatched";
    },
  };
}

function routeTree(build: ServerBuild): RouteObject[] {
  const children = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(build.routes)) {
    const list = children.get(route.parentId) ?? [];
    list.push({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive } as RouteObject);
    children.set(route.parentId, list);
  }
  const attach = (routes: RouteObject[]): RouteObject[] =>
    routes.map((route) => (route.index ? route : { ...route, children: attach(children.get(route.id) ?? []) }));
  return attach(children.get(undefined) ?? []);
}
