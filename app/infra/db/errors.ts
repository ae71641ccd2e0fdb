import { DATABASE_RETRY_AFTER_SECONDS } from "~/lib/constants";
import { messages } from "~/lib/messages";

const CONNECTION_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "57P01", "57P02", "57P03"]);

/**
 * The database server is not there: the connection was refused, cut off or timed out, or the server is shutting down
 * or starting up (SQLSTATE class 08 and 57P01–57P03). Not a query's own failure (a constraint, a syntax error).
 */
export function isConnectionError(error: unknown) {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return (
    (typeof code === "string" && (CONNECTION_ERROR_CODES.has(code) || code.startsWith("08"))) ||
    // pg's own words: the connection ended under a query, the pool could not connect in time, and a transaction's
    // ROLLBACK on a connection already lost (Kysely then throws that instead of the query's error).
    /Connection terminated|timeout exceeded when trying to connect|is not queryable/i.test(message ?? "")
  );
}

/**
 * What a request gets when the database is out of reach where its answer depends on it: 503 with
 * `Retry-After` and the API's envelope, thrown from a loader or action. A page shows it through the error boundary,
 * an API client reads the envelope; neither is told that the user is signed out.
 */
export function databaseUnavailable() {
  return new Response(JSON.stringify({ success: false, error: { code: "unavailable", message: messages.api.databaseUnavailable } }), {
    status: 503,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
      "Cache-Control": "no-store",
    },
  });
}
