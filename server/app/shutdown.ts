import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { Server as SocketServer } from "socket.io";
import { log } from "../../app/infra/logger.server";
import { SOCKET_MOVE, socketsPerMoveWave } from "../../app/lib/constants/chat";
import { RealtimeEvent } from "../../app/lib/realtime-events";
import type { DrainGate } from "./draining";

/**
 * How long a kept-alive connection may sit idle before the server closes it: longer than its clients wait before
 * reusing one (a load balancer's pool, AWS's ALB 60 s; an HTTP client's agent keeps it until the server closes it).
 * With Node's 5 s, a client that reused a connection just as the server closed it got ECONNRESET for a request that
 * never arrived: a sign-in did so in CI (the e2e page sweep signs in every few seconds over one kept-alive agent).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Listens on the port. A long accept queue (the kernel caps it at net.core.somaxconn): under a burst, connections wait
 * to be taken in and answered (or refused, server/overload.ts) instead of being dropped, which makes the client resend
 * its SYN after 1, 3, 7 s. Node's default of 511 overflowed in bench:chat at 300 messages/s. Idle connections stay
 * open for KEEP_ALIVE_TIMEOUT_MS; the graceful shutdown closes them at once.
 */
export function listenOn(httpServer: http.Server, port: number, host?: string): Promise<AddressInfo> {
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen({ port, host, backlog: 4096 }, () => {
      httpServer.off("error", reject);
      resolve(httpServer.address() as AddressInfo);
    });
  });
}

/**
 * The graceful shutdown, once however often it is asked for: refuses new requests and sockets at once (503, /readyz
 * too), lets the requests in progress finish, moves the sockets to other replicas, stops listening and closes the
 * sockets' transports, then `closeServices`.
 */
export function gracefulShutdown({
  httpServer,
  io,
  gate,
  timeoutMs,
  graceMs,
  closeServices,
}: {
  httpServer: http.Server;
  io: SocketServer;
  gate: DrainGate;
  /** How long it waits for the requests in progress before cutting connections. */
  timeoutMs: number;
  /** How long it fails /readyz, still serving, before it moves the sockets. */
  graceMs: number;
  /** The steps after the sockets closed: the services, Redis and the database. */
  closeServices: () => Promise<void>;
}): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      gate.begin();
      const started = Date.now();
      log.info({ event: "shutdown", inFlight: gate.inFlight() }, `shutdown: draining, ${gate.inFlight()} requests in progress`);
      // Kept-alive connections with nothing in progress close now; their clients' next request opens a new one.
      httpServer.closeIdleConnections();
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
      // A rolling deploy nobody sees (ADR 048). First out of rotation: /readyz fails from now on, and the load
      // balancer stops sending new connections here within the grace; the sockets open here go on as before.
      if (graceMs > 0) await Promise.race([new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref()), deadline]);
      await tellSocketsToMove(io);
      const moved = socketsGone(io);
      await Promise.race([Promise.all([gate.requestsDone(), moved]), deadline]);
      log.info({ event: "shutdown", sockets: io.engine.clientsCount, ms: Date.now() - started }, "shutdown: sockets told to move");
      // Stop listening: a load balancer that still sends a request here finds the port closed and tries another
      // replica. Closing every socket's transport makes its client reconnect by itself, through the load balancer
      // to another replica (or to this one once restarted). io.close() closes the HTTP server too.
      httpServer.close();
      const closed = new Promise<void>((resolve) => io.close(() => resolve()));
      // Nothing is in progress any more (or the wait ran out): what is left are kept-alive connections, refusals
      // on their way out and long-polls, all of them cut now. io.close() resolves once the last connection is gone.
      httpServer.closeAllConnections();
      await Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref())]);
      log.info({ event: "shutdown", unfinished: gate.inFlight(), ms: Date.now() - started }, "shutdown: requests finished, sockets closed");
      await closeServices();
    })();
    return closing;
  };
}

/**
 * Tells the sockets to move: each client reconnects at once, through the load balancer to a replica that stays, and
 * recovers its session there (Redis keeps it). In waves, so that the replica taking them in is not asked for every
 * handshake and catch-up at once (it would refuse some as overloaded, and those clients would wait a second or two).
 * Each socket on its own: a broadcast would carry an offset that the recovery then looks for in vain.
 */
async function tellSocketsToMove(io: SocketServer): Promise<void> {
  const toMove = [...io.of("/").sockets.values()];
  const perWave = socketsPerMoveWave(toMove.length);
  for (let from = 0; from < toMove.length; from += perWave) {
    if (from > 0) await new Promise((resolve) => setTimeout(resolve, SOCKET_MOVE.gapMs));
    for (const socket of toMove.slice(from, from + perWave)) if (socket.connected) socket.emit(RealtimeEvent.move);
  }
}

/** Resolves once every socket is gone, or `SOCKET_MOVE.waitMs` after the last wave: those still here are cut then. */
function socketsGone(io: SocketServer): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (io.engine.clientsCount > 0) return;
      clearInterval(check);
      resolve();
    }, 50);
    setTimeout(() => {
      clearInterval(check);
      resolve();
    }, SOCKET_MOVE.waitMs).unref();
  });
}
