import type { Server as SocketServer } from "socket.io";
import { PRESENCE_SWEEP_MS } from "../app/lib/constants";
import { announceOffline, markSeen } from "../app/models/presence.server";
import type { Database } from "./db/schema";
import type { Realtime } from "./realtime";

export interface PresenceTracker {
  /** A socket of the user connected or disconnected here: they were seen now. */
  seen(userId: string): Promise<unknown>;
  /** Refreshes the users connected to this process, then announces who went offline. Runs every 30 s. */
  sweep(): Promise<void>;
  stop(): void;
}

/**
 * Keeps `users.last_seen_at` fresh for everyone with a socket on this process (so "a socket is connected"
 * counts as online across replicas, PRODUCT §7) and announces users whose last sign of life is over two
 * minutes old. Failures are logged and retried on the next sweep: presence is a hint, never worth a crash.
 */
export function startPresenceTracker({ io, db, realtime }: { io: SocketServer; db: Database; realtime: Realtime }): PresenceTracker {
  let stopped = false;
  let running: Promise<void> | undefined;

  const seen = (userId: string) =>
    stopped ? Promise.resolve() : markSeen({ db, realtime, userIds: [userId] }).catch((error) => console.error("[presence]", error.message));

  const sweep = () =>
    (running ??= (async () => {
      try {
        const sockets = await io.local.fetchSockets();
        await markSeen({ db, realtime, userIds: sockets.map((socket) => socket.data.userId as string) });
        await announceOffline({ db, realtime });
      } catch (error) {
        if (!stopped) console.error("[presence]", (error as Error).message);
      } finally {
        running = undefined;
      }
    })());

  const timer = setInterval(() => void sweep(), PRESENCE_SWEEP_MS);
  timer.unref();
  return {
    seen,
    sweep,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
