import { isConnectionError } from "../app/infra/db/errors";
import type { Database } from "../app/infra/db/tables";
import { log } from "../app/infra/logger.server";
import type { Realtime } from "../app/infra/realtime";
import { SWEEP_INTERVAL_MS, SWEEP_RETRY_MS } from "../app/lib/constants";

/** A time-driven job: acts on what is due at `now` and answers how many rows it acted on. */
export interface SweepJob {
  name: string;
  run(input: { db: Database; realtime: Realtime; now: Date }): Promise<number>;
}

export interface Sweeper {
  /** Runs every job once (the start-up run, the interval, tests). A run already under way is joined, not doubled. */
  runOnce(): Promise<Record<string, number>>;
  /** Stops the interval and waits for a run under way, before the database closes. */
  stop(): Promise<void>;
}

/**
 * The one sweeper for everything time-driven (docs/architecture.md "Money and deadlines"): every server process runs it
 * at start-up (for anything missed while no process was up) and every 30 s. Each job claims its due rows with
 * `FOR UPDATE SKIP LOCKED`, so however many replicas sweep at once, the database hands each row to one of them.
 * Time comes from `clock`, which tests move. A failing job is logged and tried again at the next run. A run the
 * database's absence cuts short (a restart, an outage) is tried again every `retryMs` until one goes through, so that
 * what fell due meanwhile is acted on within moments of the database's return, not at the next interval.
 */
export function startSweeper({
  db,
  realtime,
  jobs,
  clock = () => new Date(),
  intervalMs = SWEEP_INTERVAL_MS,
  retryMs = SWEEP_RETRY_MS,
  onRun,
}: {
  db: Database;
  realtime: Realtime;
  jobs: SweepJob[];
  clock?: () => Date;
  intervalMs?: number;
  retryMs?: number;
  /** Told when a run finished, with the rows each job acted on (the metrics). */
  onRun?: (done: Record<string, number>, at: Date) => void;
}): Sweeper {
  let running: Promise<Record<string, number>> | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  // Since when runs have found the database out of reach (one log line when it goes, one when it is back).
  let unreachableSince: number | undefined;
  const runOnce = () =>
    (running ??= (async () => {
      clearTimeout(retry);
      retry = undefined;
      const done: Record<string, number> = {};
      let unreachable = false;
      try {
        for (const job of jobs) {
          if (stopped) break;
          try {
            done[job.name] = await job.run({ db, realtime, now: clock() });
            if (done[job.name]! > 0) log.info({ event: "sweeper", job: job.name, rows: done[job.name] }, `sweeper: ${job.name} acted on ${done[job.name]}`);
          } catch (error) {
            if (!isConnectionError(error)) {
              log.error({ event: "sweeper", job: job.name, err: error }, `sweeper: ${job.name} failed`);
              continue;
            }
            // The jobs after this one would find the database gone too: the whole run is tried again shortly.
            unreachable = true;
            if (unreachableSince === undefined) {
              unreachableSince = Date.now();
              log.warn({ event: "sweeper", job: job.name, err: error }, `sweeper: the database is out of reach; trying again every ${retryMs} ms`);
            }
            break;
          }
        }
        if (!unreachable && unreachableSince !== undefined) {
          log.info({ event: "sweeper", ms: Date.now() - unreachableSince }, `sweeper: the database is back after ${Date.now() - unreachableSince} ms`);
          unreachableSince = undefined;
        }
        onRun?.(done, new Date());
        return done;
      } finally {
        running = undefined;
        if (unreachable && !stopped) {
          retry = setTimeout(() => void runOnce(), retryMs);
          retry.unref();
        }
      }
    })());
  const timer = setInterval(() => void runOnce(), intervalMs);
  timer.unref();
  void runOnce();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(retry);
      await running;
    },
  };
}
