import type express from "express";
import { messages } from "../../app/lib/messages";

/** Last resort for failures outside Remix (its own errors render the app's error page). */
export const lastResortErrors: express.ErrorRequestHandler = (error, _req, res, next) => {
  if (res.headersSent) return next(error);
  const status = Number(error?.status ?? error?.statusCode) || 500;
  // pino-http logs the failed request with this error (res.err) as its line.
  if (status >= 500) res.err = error;
  res
    .status(status)
    .type("text/plain; charset=utf-8")
    .send(status === 404 ? "Not Found" : messages.error.body);
};
