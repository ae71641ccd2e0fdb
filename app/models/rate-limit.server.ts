import { sql } from "kysely";
import type { Database } from "../../server/db/schema";

/**
 * Rate limits shared by every replica through the database: one row per counted event in a
 * bucket (`sign-in:ip:…`, `chat:user:…`), pruned as it ages out of the window.
 */
interface Limit {
  db: Database;
  buckets: string[];
  limit: number;
  windowMs: number;
}

/** Events in each bucket within the window (buckets without any are absent). */
async function bucketCounts(executor: Database, { buckets, windowMs }: { buckets: string[]; windowMs: number }) {
  const since = new Date(Date.now() - windowMs);
  // One round trip: prune what aged out (a CTE the count does not see) and count what is in the window.
  const counts = await executor
    .with("pruned", (db) =>
      db.deleteFrom("rate_limit_events").where("bucket", "in", buckets).where("created_at", "<", since).returning("id"),
    )
    .selectFrom("rate_limit_events")
    .select(["bucket", (eb) => eb.fn.countAll<number>().as("n")])
    .where("bucket", "in", buckets)
    .where("created_at", ">=", since)
    .groupBy("bucket")
    .execute();
  return new Map(counts.map((row) => [row.bucket, Number(row.n)]));
}

async function fullBuckets(executor: Database, { buckets, limit, windowMs }: Omit<Limit, "db">) {
  const counts = await bucketCounts(executor, { buckets, windowMs });
  return [...counts.values()].some((n) => n >= limit);
}

/** How many events each bucket counted within the window (0 for none). */
export async function countRateLimitEvents({ db, buckets, windowMs }: { db: Database; buckets: string[]; windowMs: number }) {
  const counts = await bucketCounts(db, { buckets, windowMs });
  return buckets.map((bucket) => counts.get(bucket) ?? 0);
}

/** Counts one event in each bucket. */
export async function recordRateLimitEvent({ db, buckets }: { db: Database; buckets: string[] }) {
  await db.insertInto("rate_limit_events").values(buckets.map((bucket) => ({ bucket }))).execute();
}

/**
 * Counts one event in each bucket if all are under the limit, and answers whether it did. An
 * advisory lock per bucket makes concurrent callers line up, so the limit is exact.
 */
export async function consumeRateLimit({ db, ...limit }: Limit): Promise<boolean> {
  return db.transaction().execute((trx) => consumeRateLimitIn({ db: trx, ...limit }));
}

/** consumeRateLimit inside a transaction the caller holds: the event counts only if that transaction commits. */
export async function consumeRateLimitIn({ db: trx, ...limit }: Limit): Promise<boolean> {
  for (const bucket of [...limit.buckets].sort()) {
    await sql`select pg_advisory_xact_lock(hashtext(${bucket}))`.execute(trx);
  }
  if (await fullBuckets(trx, limit)) return false;
  await recordRateLimitEvent({ db: trx, buckets: limit.buckets });
  return true;
}
