import type http from "node:http";
import type { Duplex } from "node:stream";
import type express from "express";
import { messages } from "../../app/lib/messages";

/** What a draining replica still answers: the load balancer's and the operator's probes. */
const HEALTH_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

export interface DrainGate {
  /** Whether shutdown has begun: new requests and socket handshakes are refused from then on. */
  draining(): boolean;
  /** Shutdown begins (close()). */
  begin(): void;
  /** The requests in progress. */
  inFlight(): number;
  /** Resolves once no request is in progress any more. */
  requestsDone(): Promise<void>;
  /**
   * Counts the requests in progress; while draining, only the health endpoints answer and everything else is refused
   * with the connection closed, so that the client (or the load balancer, which retries a 503 elsewhere) comes back
   * to a replica that stays.
   */
  middleware: express.RequestHandler;
}

export function createDrainGate(): DrainGate {
  let draining = false;
  let inFlight = 0;
  let allFinished: (() => void) | undefined;
  return {
    draining: () => draining,
    begin: () => {
      draining = true;
    },
    inFlight: () => inFlight,
    requestsDone: () => (inFlight > 0 ? new Promise<void>((resolve) => (allFinished = resolve)) : Promise.resolve()),
    middleware: (req, res, next) => {
      if (draining && !HEALTH_PATHS.has(req.path)) {
        res.set({ Connection: "close", "Retry-After": "1", "Cache-Control": "no-store" }).status(503);
        if (req.path.startsWith("/api/")) res.json({ success: false, error: { code: "unavailable", message: messages.api.restarting } });
        else res.type("text/plain; charset=utf-8").send(messages.api.restarting);
        return;
      }
      inFlight++;
      let counted = true;
      const finish = () => {
        if (!counted) return;
        counted = false;
        if (--inFlight === 0) allFinished?.();
      };
      res.once("finish", finish);
      res.once("close", finish);
      next();
    },
  };
}

/**
 * While draining, a new realtime session's handshake (a Socket.IO request without a session id, long polling or
 * WebSocket) is answered 503 before engine.io sees it (engine.io's own refusal is a 403), so that HAProxy tries it on
 * another replica (`retry-on 503`) and the client never sees the refusal: a long-polling browser moved by this replica
 * comes back with its replica cookie, which HAProxy honours while the replica lives (`option persist`, ADR 048).
 * Requests of sessions already open here go through.
 */
export function refuseHandshakesWhileDraining(httpServer: http.Server, draining: () => boolean) {
  const isHandshake = (url = "") => url.startsWith("/socket.io/") && !/[?&]sid=/.test(url);
  const requestListeners = httpServer.listeners("request") as Array<(req: http.IncomingMessage, res: http.ServerResponse) => void>;
  httpServer.removeAllListeners("request");
  httpServer.on("request", (req, res) => {
    if (draining() && isHandshake(req.url)) {
      res
        .writeHead(503, { "Retry-After": "1", "Cache-Control": "no-store", Connection: "close", "Content-Type": "text/plain; charset=utf-8" })
        .end(messages.api.restarting);
      return;
    }
    for (const listener of requestListeners) listener.call(httpServer, req, res);
  });
  const upgradeListeners = httpServer.listeners("upgrade") as Array<(req: http.IncomingMessage, socket: Duplex, head: Buffer) => void>;
  httpServer.removeAllListeners("upgrade");
  httpServer.on("upgrade", (req, socket: Duplex, head: Buffer) => {
    if (draining() && isHandshake(req.url)) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nCache-Control: no-store\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    for (const listener of upgradeListeners) listener.call(httpServer, req, socket, head);
  });
}
