import type { Database } from "../app/infra/db/tables";
import { log } from "../app/infra/logger.server";
import type { Realtime } from "../app/infra/realtime";
import { PRESENCE_DISCONNECT_FLUSH_MS, PRESENCE_SWEEP_MS } from "../app/lib/constants";
import { announceOffline, markSeen } from "../app/models/presence.server";

export interface PresenceTracker {
  /** A socket of the user connected here. Resolves once the user is marked seen (at their first socket). */
  connected(userId: string): Promise<void>;
  /** A socket of the user closed here. When it was their last, they are marked seen (batched). */
  disconnected(userId: string): void;
  /** Refreshes the users connected to this process, then announces who went offline. Runs every 30 s. */
  sweep(): Promise<void>;
  /** Stops the timers and waits for the writes under way, before the database closes. */
  stop(): Promise<void>;
}

/**
 * Keeps `user_presence.last_seen_at` fresh for everyone with a socket on this process (so "a socket is connected"
 * counts as online on every replica, docs/product.md#realtime, ADR 010) and announces users whose last sign of life is over
 * two minutes old. Failures are logged and retried by the next sweep: presence is a hint, never worth a crash.
 */
export function startPresenceTracker({ db, realtime }: { db: Database; realtime: Realtime }): PresenceTracker {
  const sockets = new Map<string, number>(); // user id → sockets open on this process
  const leaving = new Set<string>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  let sweeping: Promise<void> | undefined;
  let flushTimer: NodeJS.Timeout | undefined;

  const track = <T>(work: Promise<T>) => {
    const tracked = work.catch((error: Error) => log.error({ err: error }, "presence: an update failed")).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    return tracked;
  };
  const seen = (userIds: string[]) => (userIds.length ? track(markSeen({ db, realtime, userIds })) : Promise.resolve());

  const flushLeaving = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const userIds = [...leaving];
    leaving.clear();
    return seen(userIds);
  };

  const sweep = () =>
    (sweeping ??= (async () => {
      try {
        await flushLeaving();
        await seen([...sockets.keys()]);
        await track(announceOffline({ db, realtime }));
      } finally {
        sweeping = undefined;
      }
    })());

  const timer = setInterval(() => void sweep(), PRESENCE_SWEEP_MS);
  timer.unref();

  return {
    async connected(userId) {
      const count = (sockets.get(userId) ?? 0) + 1;
      sockets.set(userId, count);
      leaving.delete(userId);
      // Another tab here already keeps the user online; the sweep refreshes them.
      if (count === 1 && !stopped) await seen([userId]);
    },
    disconnected(userId) {
      const count = (sockets.get(userId) ?? 1) - 1;
      if (count > 0) {
        sockets.set(userId, count);
        return;
      }
      sockets.delete(userId);
      if (stopped) return;
      // The two minutes start from the last socket's close, not from the last sweep.
      leaving.add(userId);
      flushTimer ??= setTimeout(() => void flushLeaving(), PRESENCE_DISCONNECT_FLUSH_MS);
    },
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(flushTimer);
      leaving.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
