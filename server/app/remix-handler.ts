import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import { createRequestHandler as createRemixRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import type express from "express";
import type { AuthService, RequestAuth, RequestInfo } from "../../app/infra/auth/session";
import { databaseUnavailable } from "../../app/infra/db/errors";
import "../../app/load-context";
import { answeringDatabaseDown } from "../database-down";

/** What the load context (app/load-context.ts) is made of: the same for every request, and `readDb` and `auth` per request. */
export type LoadContextParts = Pick<AppLoadContext, "db" | "io" | "config" | "realtime" | "chat" | "payments" | "storage"> & {
  readDbFor(req: express.Request): AppLoadContext["readDb"];
  auth: Pick<AuthService, "forRequest">;
};

/**
 * Remix through @remix-run/express's own request and response conversions, with one step between them. Every
 * route's loader and action answers the database's absence with a thrown 503 (server/database-down.ts, ADR 049);
 * what still ends as Remix's 500 for it (entry.server's handleError marks the context) gets the API's 503 envelope
 * with Retry-After here, and a page its 503 in entry.server.
 */
export function remixRequestHandler({
  getBuild,
  development,
  context,
}: {
  getBuild: () => Promise<ServerBuild>;
  development: boolean;
  context: LoadContextParts;
}): express.RequestHandler {
  const handleRemixRequest = createRemixRequestHandler(async () => answeringDatabaseDown(await getBuild()), development ? "development" : "production");
  const { readDbFor, auth, ...shared } = context;
  return async (req, res, next) => {
    try {
      const loadContext: AppLoadContext = {
        ...shared,
        readDb: readDbFor(req),
        cspNonce: res.locals.cspNonce,
        auth: withUserInLog(auth.forRequest(requestInfo(req, res)), res),
      };
      const response = await handleRemixRequest(createRemixRequest(req, res), loadContext);
      const databaseDown = loadContext.databaseDown && response.status >= 500 && req.path.startsWith("/api/");
      await sendRemixResponse(res, databaseDown ? databaseUnavailable() : response);
    } catch (error) {
      next(error);
    }
  };
}

/** What the session module needs of an Express request and its response. */
function requestInfo(req: express.Request, res: express.Response): RequestInfo {
  return {
    origin: `${req.protocol}://${req.get("host")}`,
    cookieHeader: req.headers.cookie,
    authorization: req.headers.authorization,
    clientIp: req.ip ?? "unknown",
    userAgent: req.get("user-agent"),
    appendSetCookie: (value) => res.append("Set-Cookie", value),
  };
}

/** The request's auth, noting the signed-in user's id for the request's log line. */
function withUserInLog(auth: RequestAuth, res: express.Response): RequestAuth {
  return {
    ...auth,
    getUser: () =>
      auth.getUser().then((user) => {
        if (user) res.locals.userId = user.id;
        return user;
      }),
    getSignIn: () =>
      auth.getSignIn().then((user) => {
        if (user) res.locals.userId = user.id;
        return user;
      }),
  };
}
