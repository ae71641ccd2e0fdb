import { Readable } from "node:stream";
import type express from "express";
import type { LocalAuthHandler } from "../../app/infra/auth/session";
import { databaseUnavailable, isConnectionError } from "../../app/infra/db/errors";
import { log } from "../../app/infra/logger.server";

/**
 * The Supabase Auth endpoints supabase-js talks to, when the app is its own auth server (server/auth/api.ts,
 * its routes in one table), as Express middleware for /auth/v1.
 */
export function embeddedAuth(localAuth: LocalAuthHandler): express.RequestHandler {
  return async (req, res, next) => {
    try {
      // The database out of reach: 503 with Retry-After, as every other request then (ADR 049), not a 500.
      const response = await localAuth(toFetchRequest(req), { clientIp: req.ip ?? "unknown", userAgent: req.get("user-agent") }).catch((error: unknown) => {
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
  };
}

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
