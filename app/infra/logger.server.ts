import { createRequire } from "node:module";
import pino from "pino";

/**
 * The one log of a process (docs/product.md#operations): one JSON line per request (server/request-log.ts) and per notable event,
 * on stdout, for whatever collects the replicas' output. In development the lines are made readable (pino-pretty).
 *
 * Nothing secret is ever logged: call sites pass ids and counts, never tokens, passwords, cookies or bank numbers,
 * and the paths below are blanked should an object carrying one slip in (test/integration/logs.test.ts reads a whole
 * run's log for the secrets it used).
 *
 * Errors go under `err` (pino's serializer: type, message, stack).
 *
 * `LOG_LEVEL` sets the level (`info` by default; `warn` under vitest, where hundreds of in-process servers run).
 * `LOG_DESTINATION=stderr` keeps stdout for a command's own output (the operator CLIs); `LOG_JSON=1` keeps
 * JSON lines in development.
 */
const mode = process.env.NODE_ENV ?? "development";
const pretty = mode === "development" && !process.env.LOG_JSON;
const fd = process.env.LOG_DESTINATION === "stderr" ? 2 : 1;

/** Blanked wherever they appear at the top of a line's object or one level down. */
const SECRET_KEYS = ["password", "token", "accessToken", "access_token", "refresh_token", "authorization", "cookie", "accountNumber", "account_number"];

export const log = pino(
  {
    level: process.env.LOG_LEVEL ?? (mode === "test" ? "warn" : "info"),
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: SECRET_KEYS.flatMap((key) => [key, `*.${key}`]), censor: "[redacted]" },
    // The target as a path: pino finds a bare name from its caller's file, which Vite's SSR runner (the dev server's
    // Remix app) does not have, and every page answered 500.
    ...(pretty ? { transport: { target: createRequire(import.meta.url).resolve("pino-pretty"), options: { translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname", singleLine: true, destination: fd } } } : {}),
  },
  pretty ? undefined : pino.destination({ fd, sync: true }),
);
