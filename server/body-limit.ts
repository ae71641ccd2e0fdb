import type { Socket } from "node:net";
import type express from "express";

/**
 * How much of a body nobody read is still read and dropped after its answer (ADR 033). Several times the largest body
 * the app accepts (an upload: 10 MB and its form), so a photo somewhat over the limit is answered cleanly, and little
 * enough that a stranger cannot make a replica read for long.
 */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
/** The longest the rest of a body is waited for after its answer, and the longest pause between two of its pieces. */
export const DISCARD_MAX_MS = 60_000;
export const DISCARD_IDLE_MS = 5_000;
/** After a connection is closed on a client still sending, how long what it sends is read and dropped (ADR 033). */
export const LINGER_MS = 2_000;

export interface DiscardOptions {
  maxBytes?: number;
  maxMs?: number;
  idleMs?: number;
  lingerMs?: number;
}

/**
 * Answers bodies that are refused before they are read (a 413 from a Content-Length, a 401 to an upload, an overload
 * 503) without resetting the connection, so that fetch, curl and a browser all get the answer (ADR 033).
 *
 * A socket closed with unread bytes in it is reset (RST), and a client still sending then loses the answer it had not
 * yet read. So once the answer is sent, the rest of the body is read and dropped (up to `maxBytes`, with no pause
 * longer than `idleMs`, within `maxMs`); then the connection serves the next request, or, when the exchange said
 * `Connection: close`, is closed (its FIN went out right after the answer, as Node sends it). A body declared larger
 * than the bound, or that passes it, gets a staged close instead: FIN after the answer, what the client still sends
 * read and dropped for `lingerMs`, then the socket closed (RFC 9112 §9.6). Until the answer is sent, a consumer that
 * gives up on the body (a web stream cancelled by a size check calls `req.destroy()`) leaves the connection for it.
 */
export function discardUnreadBody(options: DiscardOptions = {}): express.RequestHandler {
  const limits = {
    maxBytes: options.maxBytes ?? DISCARD_MAX_BYTES,
    maxMs: options.maxMs ?? DISCARD_MAX_MS,
    idleMs: options.idleMs ?? DISCARD_IDLE_MS,
    lingerMs: options.lingerMs ?? LINGER_MS,
  };
  return (req, res, next) => {
    if (req.complete || !hasBody(req)) return next();
    const socket = req.socket;
    const destroy = req.destroy;
    req.destroy = (error?: Error) => {
      // A body read to its end is destroyed as any stream is (autoDestroy); a closed or closing socket (the client
      // left, a timeout) still takes the request with it.
      if (req.complete || socket.destroyed || !socket.readable || res.writableFinished) return destroy.call(req, error);
      // Node's stream destroyer detaches a server request from its socket first: the rest still comes through it.
      req.socket = socket;
      return req.pause();
    };
    let closing = false;
    // Runs before Node's own end of the exchange, which, when the request or the answer said `Connection: close`,
    // calls `socket.destroySoon()`: the socket would be destroyed once the answer is flushed, with the body still
    // arriving. It is only ended (FIN) instead, and closed once the rest is dropped.
    res.prependOnceListener("finish", () => {
      if (req.complete || socket.destroyed) return;
      socket.destroySoon = () => {
        closing = true;
        socket.end();
      };
    });
    res.once("finish", () => {
      req.destroy = destroy;
      // Back to the prototype's.
      delete (socket as Partial<Socket>).destroySoon;
      if (req.complete || socket.destroyed) return;
      req.socket = socket;
      discardRest(req, socket, limits, closing);
    });
    res.once("close", () => {
      req.destroy = destroy;
    });
    next();
  };
}

function hasBody(req: express.Request) {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

function discardRest(req: express.Request, socket: Socket, limits: Required<DiscardOptions>, closing: boolean) {
  // Whoever was reading the body (the web stream the app was handed) lets go of it, as Node's own dump does.
  req.removeAllListeners("data");
  if (Number(req.headers["content-length"] ?? 0) > limits.maxBytes) {
    req.resume();
    closeAfterLinger(socket, limits.lingerMs);
    return;
  }
  let discarded = 0;
  let done = false;
  const stop = () => {
    done = true;
    clearTimeout(deadline);
    clearTimeout(idle);
    req.off("data", count);
    req.off("end", ended);
    // A keep-alive connection may drop many bodies: each leaves no listener behind.
    socket.off("close", stop);
  };
  const ended = () => {
    stop();
    // Nothing unread is left, so closing now sends no reset.
    if (closing) socket.destroySoon();
  };
  const giveUp = () => {
    if (done) return;
    stop();
    closeAfterLinger(socket, limits.lingerMs);
  };
  const count = (chunk: Buffer) => {
    discarded += chunk.length;
    idle.refresh();
    if (discarded > limits.maxBytes) giveUp();
  };
  const deadline = setTimeout(giveUp, limits.maxMs).unref();
  const idle = setTimeout(giveUp, limits.idleMs).unref();
  req.on("data", count);
  req.once("end", ended);
  socket.once("close", stop);
  req.resume();
}

/** FIN once the answer is flushed, then read and drop what still comes for `lingerMs` before closing for good. */
function closeAfterLinger(socket: Socket, lingerMs: number) {
  if (socket.destroyed) return;
  socket.end();
  const timer = setTimeout(() => socket.destroy(), lingerMs).unref();
  socket.once("close", () => clearTimeout(timer));
}
