// `npm run bench:explore`: explore's search (searchListings) and the home page on a large PostgreSQL database
//. Goals: each search p99 < 50 ms, the home page p99 < 100 ms.
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) is an admin URL: the bench creates a scratch
// database there (dropped at the end, also on failure or Ctrl-C, unless KEEP=1), migrates it, seeds the games,
// communities and events, then generates in SQL (insert … select generate_series) SCALE × 100,000 users, 200,000
// listings, 150,000 completed bookings with their reviews and 1,000,000 posts, and VACUUM ANALYZEs. It then times
// searchListings, the app's own code, for each filter, sort and kind of keyword (RUNS runs each after a warm-up,
// parameters varied from run to run), and GET / on the built server (`npm run build` first), signed out and in.
// Whatever misses its goal gets its SQL's EXPLAIN (ANALYZE, BUFFERS) printed. SCALE=0.1 for a quick run.
// KEEP=1 keeps the database; REUSE=<its name> (same SCALE) measures it again without generating (after a new migration).
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import { Kysely, PostgresDialect, sql, type CompiledQuery } from "kysely";
import pg from "pg";
import { openDatabase, type Database, type DatabaseHandle } from "../../app/infra/db";
import type { DB } from "../../app/infra/db/tables";
import { HOME_EVENTS_MAX, HOME_GAMES_MAX, HOME_ONLINE_SELLERS_MAX, HOME_POSTS_MAX } from "../../app/lib/constants";
import { EXPLORE_DEFAULTS, type ExploreFilters } from "../../app/lib/explore";
import { listEvents } from "../../app/models/events.server";
import { listPopularGames } from "../../app/models/game.server";
import { searchListings } from "../../app/models/listing-search.server";
import { listPosts } from "../../app/models/posts.server";
import { migrateToLatest } from "../../server/db/migrate";
import { seedDemoData } from "../../server/db/seed";
import { bookingId, listingId, MINUTES, NAME_FIRST, NAME_SECOND, pick, POST_WORDS, PRICES, TITLE_FIRST, TITLE_SECOND, TITLE_THIRD, userId, userIdOf } from "./bench-data";
import { adminUrl, scratchDatabase } from "./bench-database";
import { signInBenchUser, startBuiltServer } from "./bench-server";

const SCALE = Number(process.env.SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 10)) throw new Error("SCALE must be a number in (0, 10]");
const RUNS = Number(process.env.RUNS ?? 200);
const WARM_UP = 10;
/** A case that is this slow stops early: its figures are then over fewer runs (printed). */
const CASE_SECONDS_MAX = 30;
const SEARCH_GOAL_MS = 50;
const HOME_GOAL_MS = 100;

const count = (n: number) => Math.max(10, Math.round(n * SCALE));
const USERS = count(100_000);
const SELLERS = Math.round(USERS * 0.4); // each sells LISTINGS / SELLERS = 5 listings
const LISTINGS = count(200_000);
const BOOKINGS = count(150_000);
const POSTS = count(1_000_000);
const BLOCKS = count(2_000);

let database: DatabaseHandle | undefined;
let capturePool: pg.Pool | undefined;
let server: ChildProcess | undefined;
let heartbeat: NodeJS.Timeout | undefined;
// REUSE=<name>: measure a database a KEEP=1 run left (migrated to the latest first, not generated again, not dropped).
const scratch = scratchDatabase("explore", async () => {
  clearInterval(heartbeat);
  server?.kill("SIGTERM");
  await database?.close().catch(() => {});
  await capturePool?.end().catch(() => {});
});
const { name: dbName, url: benchUrl } = scratch;
const REUSE = scratch.reused;

const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(", ");
/** Nearest rank. */
const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const ms = (value: number) => value.toFixed(1);

async function generate(db: Database) {
  const step = async (label: string, statement: { execute(db: Database): Promise<unknown> }) => {
    const started = performance.now();
    await statement.execute(db);
    console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };

  // ~1% online now (presence's flag and last sign of life); everyone else was not seen within the hour.
  await step(
    `${USERS} users`,
    sql`
      insert into users (id, display_name, created_at, online_announced)
      select ${userId("i")},
        ${pick(NAME_FIRST, "abs(hashint4(i)::bigint)")} || ${pick(NAME_SECOND, "abs(hashint4(i + 1000003)::bigint)")} || case when i % 3 = 0 then '' else (i % 1000)::text end,
        now() - (i % 700) * interval '1 day',
        i % 100 = 0
      from generate_series(1, ${USERS}) as i`,
  );
  await step(`${USERS / 100} online`, sql`insert into user_presence (user_id, last_seen_at) select id, now() from users where online_announced`);
  // Through migration 0012's trigger, as the app writes them (search text and grams from title, seller and game).
  // Games are skewed (the first ones are popular); 90 % active, the rest paused or archived.
  await step(
    `${LISTINGS} listings (search text by trigger)`,
    sql`
      insert into listings (id, seller_id, game_id, title, price_per_unit, minutes_per_unit, max_units, status, created_at, updated_at)
      select ${listingId("i")}, ${userId(`1 + (i - 1) % ${SELLERS}`)}, g.ids[1 + floor(power(random(), 1.6) * g.n)::int],
        ${pick(TITLE_FIRST, "floor(random() * 1000)::int")} || ' ' || ${pick(TITLE_SECOND, "floor(random() * 1000)::int")} || ${pick(TITLE_THIRD, "floor(random() * 1000)::int")},
        ${pick(PRICES, "floor(random() * 1000)::int")}, ${pick(MINUTES, "floor(random() * 1000)::int")}, 1 + i % 8,
        case when random() < 0.9 then 'active' when random() < 0.5 then 'paused' else 'archived' end,
        t, t
      from generate_series(1, ${LISTINGS}) as i,
        (select array_agg(id order by sort_order) as ids, count(*)::int as n from games) as g,
        lateral (select now() - random() * interval '180 days' + i * interval '0 seconds' as t) as times`,
  );
  // Completed bookings (the only kind a review may follow), on the listings of four sellers in five: the fifth have no
  // rating. Names and who is rated come from hashes of the index, not from its residues, so they are not correlated. Buyers are the users who sell nothing, so never the seller.
  await step(
    `${BOOKINGS} completed bookings`,
    sql`
      insert into bookings (id, listing_id, buyer_id, seller_id, title, price_per_unit, minutes_per_unit, units, total_price, total_minutes,
        desired_start_at, status, accept_deadline_at, accepted_at, started_at, ends_at, completed_at, completed_by, idempotency_key, created_at, updated_at)
      select ${bookingId("j")}, l.id, ${userId(`${SELLERS + 1} + j % ${USERS - SELLERS}`)}, l.seller_id, l.title, l.price_per_unit, l.minutes_per_unit, 1,
        l.price_per_unit, l.minutes_per_unit, s.t, 'completed', s.t - interval '1 hour', s.t - interval '2 hours', s.t,
        s.t + l.minutes_per_unit * interval '1 minute', s.t + l.minutes_per_unit * interval '1 minute', 'buyer', 'bench-' || j, s.t - interval '1 day', s.t
      from (select j, 1 + (j::bigint * 7919) % ${LISTINGS} as li, now() - random() * interval '170 days' as t from generate_series(1, ${BOOKINGS}) as j) as s
      join listings l on l.id = ${listingId("s.li")}
      where abs(hashint4(((s.li - 1) % ${SELLERS})::int)::bigint) % 5 <> 0`,
  );
  // Reviews with migration 0012's per-row trigger off: it would update the seller's row and every one of their listings
  // once per review (minutes at this size). The same totals are then written in one UPDATE each, as 0012's own
  // backfill does, and the trigger is back on before anything is measured. A seller's stars lean on a per-seller base.
  await step(`reviews for those bookings, then users' and listings' rating totals`, {
    execute: (db) =>
      db.transaction().execute(async (trx) => {
        await sql`alter table reviews disable trigger reviews_rating`.execute(trx);
        await sql`
          insert into reviews (booking_id, reviewer_id, reviewee_id, rating, comment, created_at)
          select b.id, b.buyer_id, b.seller_id,
            greatest(1, least(5, 3 + (('x' || substr(b.seller_id::text, 25))::bit(48)::bigint % 3)::int
              + case when random() < 0.15 then -2 when random() < 0.3 then -1 when random() < 0.3 then 1 else 0 end)),
            'ありがとうございました', b.completed_at + interval '1 hour'
          from bookings b where b.idempotency_key like 'bench-%'`.execute(trx);
        await sql`alter table reviews enable trigger reviews_rating`.execute(trx);
        await sql`
          update users u set rating_count = r.n, rating_sum = r.total
          from (select reviewee_id, count(*)::int as n, sum(rating)::int as total from reviews group by reviewee_id) r
          where r.reviewee_id = u.id`.execute(trx);
        await sql`
          update listings l set seller_rating_count = u.rating_count, seller_rating = round(u.rating_sum::numeric / u.rating_count, 2)
          from users u where u.id = l.seller_id and u.rating_count > 0`.execute(trx);
      }),
  });
  // A fifth tagged with one of the seeded communities; a tenth for subscribers only.
  await step(
    `${POSTS} posts`,
    sql`
      insert into posts (author_id, content, is_public, community_id, created_at)
      select ${userId(`1 + floor(random() * ${USERS})::int`)},
        ${pick(POST_WORDS, "floor(random() * 1000)::int")} || ' ' || ${pick(POST_WORDS, "floor(random() * 1000)::int")} || ' #' || i,
        random() >= 0.1,
        case when random() < 0.2 and c.n > 0 then c.ids[1 + floor(random() * c.n)::int] end,
        date_trunc('milliseconds', now() - random() * interval '365 days')
      from generate_series(1, ${POSTS}) as i, (select array_agg(id) as ids, count(*)::int as n from communities) as c`,
  );
  // The one blocked is another user, by construction: an offset of 1 to USERS - 1 from the blocker (the constraint
  // user_blocks_not_self refused about one generation in fifty when both were drawn at random).
  await step(
    `${BLOCKS} blocks`,
    sql`
      insert into user_blocks (blocker_id, blocked_id)
      select ${userId("a")}, ${userId(`1 + (a - 1 + 1 + floor(random() * ${USERS - 1})::int) % ${USERS}`)}
      from (select 1 + floor(random() * ${USERS})::int as a from generate_series(1, ${BLOCKS})) as blockers
      on conflict do nothing`,
  );
  // The bulk UPDATE above left a dead version of most listings: vacuum too, as autovacuum would have by the time
  // anyone searches (it also sets the visibility map that index-only counts read).
  await step("VACUUM ANALYZE", sql`vacuum analyze`);
}

/** A case: its label and the filters of run number `run` (varied, so no single plan or cache line is flattered). */
interface Case {
  label: string;
  filters: (run: number) => Omit<ExploreFilters, "page"> & { page?: number };
  viewer?: (run: number) => string | null;
}

function cases(gameSlugs: string[], gameKana: string[]): Case[] {
  const base = { ...EXPLORE_DEFAULTS };
  const at = <T,>(values: readonly T[], run: number) => values[run % values.length]!;
  const twoChar = ["深夜", "練習", "対戦", "攻略", "雑談", "周回", "配信", "朝活"];
  // Katakana typed, hiragana stored (まったり in titles; ひなた, ゆうき … in names): found through gm_search_text.
  const katakana = ["マッタリ", "ヒナタ", "ユウキ", "アオイ", "ハルト", "サクラ"];
  // The end of one name part and the start of the next: a few hundred listings each.
  const nameParts = ["藤ゆう", "木カイ", "橋あお", "中はる", "らカイ", "トユウ", "村マス", "本キン"];
  const latin = ["shadow", "neko", "gamer", "ace", "pro"];
  const ranges: [number, number][] = [[100, 500], [1000, 3000], [5000, 10000], [20000, 50000], [300, 800]];
  return [
    { label: "no filter (recommended)", filters: () => base },
    { label: "game", filters: (run) => ({ ...base, game: at(gameSlugs, run) }) },
    { label: "online", filters: () => ({ ...base, online: true }) },
    { label: "price range", filters: (run) => ({ ...base, minPrice: at(ranges, run)[0], maxPrice: at(ranges, run)[1] }) },
    { label: "min rating", filters: (run) => ({ ...base, minRating: at([3, 3.5, 4, 4.5], run) }) },
    { label: "minutes", filters: (run) => ({ ...base, minutes: at(MINUTES, run) }) },
    { label: "sort rating", filters: () => ({ ...base, sort: "rating" }) },
    { label: "sort price", filters: () => ({ ...base, sort: "price" }) },
    { label: "sort newest", filters: () => ({ ...base, sort: "newest" }) },
    { label: "q: 2-char kanji", filters: (run) => ({ ...base, q: at(twoChar, run) }) },
    { label: "q: katakana → hiragana", filters: (run) => ({ ...base, q: at(katakana, run) }) },
    { label: "q: game kana", filters: (run) => ({ ...base, q: at(gameKana, run) }) },
    { label: "q: part of a name", filters: (run) => ({ ...base, q: at(nameParts, run) }) },
    { label: "q: latin", filters: (run) => ({ ...base, q: at(latin, run) }) },
    // Orders with no online part first: every match of a common word goes through the order.
    { label: "q: game kana, by newest", filters: (run) => ({ ...base, q: at(gameKana, run), sort: "newest" }) },
    { label: "q: 2-char kanji, by rating", filters: (run) => ({ ...base, q: at(twoChar, run), sort: "rating" }) },
    { label: "q: game kana, online", filters: (run) => ({ ...base, q: at(gameKana, run), online: true }) },
    { label: "q: game kana, page 2", filters: (run) => ({ ...base, q: at(gameKana, run), page: 2 }) },
    { label: "q + game", filters: (run) => ({ ...base, q: at(twoChar, run), game: at(gameSlugs, run * 7 + 3) }) },
    { label: "page 10 (each sort)", filters: (run) => ({ ...base, sort: at(["recommended", "rating", "price", "newest"] as const, run), page: 10 }) },
    { label: "recommended, signed in", filters: () => base, viewer: (run) => userIdOf(1 + ((run * 7919) % USERS)) },
    { label: "home: online sellers", filters: () => ({ ...base, online: true, sort: "rating" }) },
  ];
}

interface Result {
  label: string;
  runs: number;
  p50: number;
  p99: number;
  max: number;
  slowestRun: number;
  goal: number;
}

async function time(label: string, goal: number, once: (run: number) => Promise<unknown>): Promise<Result> {
  for (let run = 0; run < WARM_UP; run++) await once(10_000 + run);
  const samples: { run: number; ms: number }[] = [];
  const deadline = performance.now() + CASE_SECONDS_MAX * 1000;
  for (let run = 0; run < RUNS && performance.now() < deadline; run++) {
    const started = performance.now();
    await once(run);
    samples.push({ run, ms: performance.now() - started });
  }
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const slowest = samples.reduce((a, b) => (b.ms > a.ms ? b : a));
  const result = { label, runs: samples.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)!, slowestRun: slowest.run, goal };
  console.log(`  ${label.padEnd(28)} p50 ${ms(result.p50).padStart(7)} ms  p99 ${ms(result.p99).padStart(7)} ms  (${result.runs} runs)`);
  return result;
}

/** Runs `work` against a Kysely that logs every statement, and prints each one's EXPLAIN (ANALYZE, BUFFERS). */
async function explain(title: string, work: (db: Database) => Promise<unknown>) {
  capturePool ??= new pg.Pool({ connectionString: benchUrl, max: 2 });
  const captured: CompiledQuery[] = [];
  const capture = new Kysely<DB>({ dialect: new PostgresDialect({ pool: capturePool }), log: (event) => void captured.push(event.query) });
  await work(capture);
  console.log(`\n=== EXPLAIN (ANALYZE, BUFFERS): ${title} — ${captured.length} statement(s)`);
  for (const query of captured) {
    console.log(`\n-- ${query.sql}\n-- parameters: ${JSON.stringify(query.parameters)}`);
    const { rows } = await capturePool.query(`explain (analyze, buffers) ${query.sql}`, query.parameters as unknown[]);
    for (const row of rows) console.log(row["QUERY PLAN"]);
  }
}

let ok = false;
try {
  console.log(`bench:explore on ${new URL(adminUrl).host}, ${os.cpus().length} cores, load average ${loadAverage()}, SCALE=${SCALE}`);
  await scratch.create();
  database = await openDatabase({ url: benchUrl, poolMax: 10 });
  const { db } = database;
  const { applied } = await migrateToLatest(db);
  if (applied.length > 0) console.log(`applied ${applied.join(", ")}`);
  let generationSeconds = 0;
  if (REUSE) {
    console.log(`reusing ${dbName} (generated before)`);
    if (applied.length > 0) await sql`analyze`.execute(db);
  } else {
    await seedDemoData(db);
    console.log(`generating into ${dbName}…`);
    const generationStarted = performance.now();
    await generate(db);
    generationSeconds = (performance.now() - generationStarted) / 1000;
    console.log(`generation: ${generationSeconds.toFixed(1)} s`);
  }
  const { rows: sizes } = await sql<{ name: string; size: string }>`
    select relname as name, pg_size_pretty(pg_total_relation_size(oid)) as size from pg_class
    where relname in ('users', 'listings', 'bookings', 'reviews', 'posts') order by relname`.execute(db);
  console.log(`sizes (with indexes): ${sizes.map((s) => `${s.name} ${s.size}`).join(", ")}`);

  // Presence's heartbeat for the online 1 %: the bench runs for longer than the two-minute online window.
  const beat = () =>
    sql`insert into user_presence (user_id, last_seen_at) select id, now() from users where online_announced
      on conflict (user_id) do update set last_seen_at = excluded.last_seen_at`
      .execute(db)
      .catch(() => {});
  await beat();
  heartbeat = setInterval(beat, 30_000);

  const games = await db.selectFrom("games").select(["slug", "name_kana"]).orderBy("sort_order").execute();
  const now = () => new Date();
  const results: Result[] = [];
  const explains: { title: string; work: (db: Database) => Promise<unknown> }[] = [];
  console.log(`\nsearchListings (${RUNS} runs each after ${WARM_UP} warm-up runs; load average ${loadAverage()})`);
  for (const c of cases(games.map((g) => g.slug), games.map((g) => g.name_kana))) {
    const run = (on: Database, index: number) =>
      searchListings({ db: on, viewerId: c.viewer?.(index) ?? null, filters: c.filters(index), now: now(), ...(c.label.startsWith("home") ? { pageSize: HOME_ONLINE_SELLERS_MAX * 2 } : {}) });
    const result = await time(c.label, SEARCH_GOAL_MS, (index) => run(db, index));
    results.push(result);
    if (result.p99 > SEARCH_GOAL_MS) {
      explains.push({ title: `${c.label} (its slowest run's filters: ${JSON.stringify(c.filters(result.slowestRun))})`, work: (on) => run(on, result.slowestRun) });
    }
  }
  // The home loader's other parts, alone (the page runs them at once with the search above).
  const homeParts: [string, (on: Database) => Promise<unknown>][] = [
    // The counts kept on the games (migration 0027).
    ["home: popular games", (on) => listPopularGames({ db: on, limit: HOME_GAMES_MAX })],
    ["home: upcoming events", (on) => listEvents({ db: on, now: now(), when: "upcoming", limit: HOME_EVENTS_MAX })],
    ["home: newest posts", (on) => listPosts({ db: on, viewerId: null, limit: HOME_POSTS_MAX, now: now() })],
  ];
  for (const [label, work] of homeParts) {
    const result = await time(label, SEARCH_GOAL_MS, () => work(db));
    results.push(result);
    if (result.p99 > SEARCH_GOAL_MS) explains.push({ title: label, work });
  }

  console.log(`\nGET / on the built server (sequential; load average ${loadAverage()})`);
  const started = await startBuiltServer(benchUrl);
  server = started.process;
  const base = started.url;
  const expectOk = async (response: Response) => {
    await response.text();
    if (response.status !== 200) throw new Error(`GET / answered ${response.status}`);
  };
  results.push(await time("GET / signed out", HOME_GOAL_MS, async () => expectOk(await fetch(new URL("/", base)))));
  // A buyer with completed bookings and no listings (the bench's users past the sellers).
  const session = await signInBenchUser(db, base, userIdOf(SELLERS + 1 + Math.floor(Math.random() * (USERS - SELLERS))));
  results.push(await time("GET / signed in", HOME_GOAL_MS, async () => expectOk(await session.request("/"))));
  server?.kill("SIGTERM");
  server = undefined;

  for (const { title, work } of explains) await explain(title, work);

  console.log(`\nbench:explore, SCALE=${SCALE} (${USERS} users, ${LISTINGS} listings, ${BOOKINGS} bookings, ${POSTS} posts); generation ${generationSeconds.toFixed(0)} s; ${os.cpus().length} cores`);
  console.log("| case | p50 ms | p99 ms | max ms | runs | goal p99 |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const r of results) {
    console.log(`| ${r.label} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.runs} | < ${r.goal} ms ${r.p99 < r.goal ? "✓" : "✗"} |`);
  }
  ok = results.every((r) => r.p99 < r.goal);
} catch (error) {
  if (!scratch.cleaning()) console.error(error);
} finally {
  await scratch.cleanUp();
}
process.exit(ok ? 0 : 1);
