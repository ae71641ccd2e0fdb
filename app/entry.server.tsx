import { Transform } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { marksLoaded } from "./components/moderation-slots";
import { isConnectionError } from "./infra/db/errors";
import { DATABASE_RETRY_AFTER_SECONDS } from "./lib/constants";
import { NonceProvider } from "./lib/nonce";
import { log } from "./infra/logger.server";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The report link and hidden badge render at once, never as a Suspense boundary (moderation-slots.tsx).
  await marksLoaded;
  // Crawlers and no-JS clients get the whole document at once; browsers get it streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  const nonce = loadContext.cspNonce;
  // A loader that found the database out of reach (handleError): the error page, as a 503 that says when to come back.
  if (loadContext.databaseDown && responseStatusCode >= 500) responseStatusCode = 503;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = stripTrailingNulBytes();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // A page answered 503 because the database is out of reach says when to come back.
          if (responseStatusCode === 503 && !responseHeaders.has("Retry-After")) responseHeaders.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors while streaming after the shell reach the error boundary; log the rest.
          if (shellRendered) log.error({ err: error }, "render: failed while streaming");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1_000);
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  if (isConnectionError(error)) {
    // Not the request's fault nor a bug: answered 503 with Retry-After (handleRequest below; server/app.ts for /api).
    context.databaseDown = true;
    log.warn({ err: error, path: new URL(request.url).pathname }, "remix: the database is out of reach");
    return;
  }
  log.error({ err: error, path: new URL(request.url).pathname }, "remix: a loader, action or render failed");
}

/**
 * React 18's Node renderer flushes its whole 2 KB buffer when a multi-byte character (all of
 * Japanese) does not fit at its end, so up to three NUL bytes end such a chunk (react#24985,
 * fixed only in React 19 by react#26228). HTML never contains NUL: drop them per chunk.
 */
function stripTrailingNulBytes() {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let end = chunk.length;
      while (end > 0 && chunk.length - end < 3 && chunk[end - 1] === 0) end--;
      callback(null, end === chunk.length ? chunk : chunk.subarray(0, end));
    },
  });
}
