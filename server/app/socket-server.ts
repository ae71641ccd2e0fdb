import type http from "node:http";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { createClient as createRedisClient } from "redis";
import { Server as SocketServer } from "socket.io";
import type { AppConfig } from "../../app/infra/config";
import { log } from "../../app/infra/logger.server";

export type RedisClient = ReturnType<typeof createRedisClient>;

/** Redis, connected, when REDIS_URL is set. */
export async function connectRedis(config: Pick<AppConfig, "REDIS_URL">): Promise<RedisClient | undefined> {
  if (!config.REDIS_URL) return undefined;
  const redis = createRedisClient({ url: config.REDIS_URL });
  redis.on("error", (error) => log.error({ err: error }, "redis: connection error"));
  await redis.connect();
  return redis;
}

/**
 * The Socket.IO server. With Redis, events fan out to every replica through a Redis stream, and a socket that
 * reconnects within two minutes gets what it missed (connection state recovery). Without it, one process.
 */
export function createSocketServer(httpServer: http.Server, { redis, draining }: { redis: RedisClient | undefined; draining: () => boolean }): SocketServer {
  return new SocketServer(httpServer, {
    path: "/socket.io",
    serveClient: false,
    // A draining replica takes no new sockets: the handshake fails at the transport and the client tries again, by
    // then on another replica (the load balancer saw /readyz fail, or found the port closed).
    allowRequest: (_req, callback) => callback(draining() ? "draining" : null, !draining()),
    ...(redis ? { adapter: createAdapter(redis), connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000 } } : {}),
  });
}
