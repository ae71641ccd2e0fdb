import { sql, type RawBuilder } from "kysely";
import type { Database } from "~/infra/db/tables";

/**
 * Rate limits shared by every replica through the database: one row per counted event in a
 * bucket (`sign-in:ip:…`, `chat:user:…`), pruned as it ages out of the window.
 */

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
 * A common table expression, `rate_limit_counted`, for a caller's statement: it counts one event in `bucket`'s
 * window for each row of the caller's CTE `from` (zero or one), and holds a row only if the event counted, i.e.
 * the bucket had fewer than `limit` events in the last `windowMs`. Exact under concurrency without a transaction
 * of the caller's: the upsert locks the bucket's row and judges its latest version (migration 0006, ADR 011).
 * Time is the database's clock. `bucket` is a name, or an expression over `from`'s columns when its rows belong to
 * different buckets (a group of chat messages, one per sender: a statement may not update one row twice).
 */
export function rateLimitWindowCte({
  bucket,
  limit,
  windowMs,
  from,
}: {
  bucket: string | RawBuilder<string>;
  limit: number;
  windowMs: number;
  from: string;
}) {
  const inWindow = sql`array(select stamp from unnest(rate_limit_windows.stamps) stamp where stamp > now() - make_interval(secs => ${windowMs / 1000}))`;
  return sql`rate_limit_counted as (
      insert into rate_limit_windows (bucket, stamps)
      select ${bucket}, array[now()] from ${sql.table(from)}
      on conflict (bucket) do update set stamps = ${inWindow} || now()
      where cardinality(${inWindow}) < ${limit}
      returning bucket
    )`;
}
