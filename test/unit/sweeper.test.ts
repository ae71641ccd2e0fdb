import { describe, expect, it } from "vitest";
import type { Database } from "../../app/infra/db/tables";
import type { Realtime } from "../../app/infra/realtime";
import { startSweeper, type SweepJob } from "../../server/sweeper";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that fails `failures` times with `error`, then acts on one row; it counts its runs. */
function job(name: string, failures: number, error: () => Error) {
  const runs = { count: 0 };
  const sweepJob: SweepJob = {
    name,
    async run() {
      runs.count += 1;
      if (runs.count <= failures) throw error();
      return 1;
    },
  };
  return { sweepJob, runs };
}

const sweeperOf = (jobs: SweepJob[]) =>
  startSweeper({ db: {} as Database, realtime: {} as Realtime, jobs, intervalMs: 3_600_000, retryMs: 20 });

describe("the sweeper without its database", () => {
  it("tries a run the database's absence cut short again soon, until one goes through, and skips the jobs after the failing one meanwhile", async () => {
    const first = job("first", 3, refused);
    const second = job("second", 0, refused);
    const sweeper = sweeperOf([first.sweepJob, second.sweepJob]);
    try {
      // The start-up run and three retries 20 ms apart; an hour's interval would not have come yet.
      await expect.poll(() => first.runs.count, { timeout: 2_000, interval: 10 }).toBe(4);
      await settle(100);
      expect(first.runs.count).toBe(4);
      // The second job ran only in the run that went through.
      expect(second.runs.count).toBe(1);
    } finally {
      await sweeper.stop();
    }
  });

  it("leaves a job's own failure to the next interval, and the jobs after it run", async () => {
    const failing = job("failing", 1, () => new Error("a bug"));
    const next = job("next", 0, refused);
    const sweeper = sweeperOf([failing.sweepJob, next.sweepJob]);
    try {
      await expect.poll(() => next.runs.count, { timeout: 2_000, interval: 10 }).toBe(1);
      await settle(100);
      expect(failing.runs.count).toBe(1);
    } finally {
      await sweeper.stop();
    }
  });

  it("stops trying once stopped", async () => {
    const down = job("down", Infinity, refused);
    const sweeper = sweeperOf([down.sweepJob]);
    await expect.poll(() => down.runs.count, { timeout: 2_000, interval: 10 }).toBeGreaterThanOrEqual(2);
    await sweeper.stop();
    const runs = down.runs.count;
    await settle(100);
    expect(down.runs.count).toBe(runs);
  });
});
