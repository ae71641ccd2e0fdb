import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import type express from "express";
import onHeaders from "on-headers";
import type { Database } from "../app/infra/db";
import type { ReadReplica } from "../app/infra/db/read-replica";
import { READ_REPLICA } from "../app/lib/constants";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Read-your-writes with a read replica (ADR 040). Every request that may write (any method but GET, HEAD and
 * OPTIONS) answers with the `gm_wrote` cookie: the time its response was ready, so after its commit. A request that
 * carries it has its public reads sent to the replica only once the replica holds everything committed before that
 * time; without a replica there is no cookie and every read goes to the primary.
 */
export function createReadRouting({ primary, replica }: { primary: Database; replica: ReadReplica | undefined }) {
  return {
    /** Before the app's handlers: stamps a write's response. */
    middleware: ((req, res, next) => {
      if (replica && !READS.has(req.method)) {
        onHeaders(res, () => {
          res.append(
            "Set-Cookie",
            serializeCookie(READ_REPLICA.wroteCookie, String(Date.now()), {
              path: "/",
              httpOnly: true,
              sameSite: "lax",
              secure: req.secure,
              maxAge: READ_REPLICA.wroteCookieMaxAgeSeconds,
            })
          );
        });
      }
      next();
    }) satisfies express.RequestHandler,
    /** The database this request's public reads go to. */
    readDbFor(req: express.Request): Database {
      if (!replica) return primary;
      const wrote = Number(parseCookies(req.headers.cookie ?? "")[READ_REPLICA.wroteCookie]);
      return replica.readerFor(Number.isFinite(wrote) && wrote > 0 ? wrote : undefined);
    },
  };
}
