import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { searchListings } from "./app/models/listings.server";
import { EXPLORE_DEFAULTS } from "./app/lib/explore";
const pool = new pg.Pool({ connectionString: process.env.URL, max: 1 });
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
await pool.query("update users set last_seen_at = now() where online_announced");
await pool.query("select 1");
for (let pass = 0; pass < 2; pass++) for (const q of ["エーペックスレジェンズ", "ヴァロラント", "スプラトゥーンスリー", "neko", "shadow"]) {
  const t = performance.now();
  await searchListings({ db: db as any, viewerId: null, filters: { ...EXPLORE_DEFAULTS, q } });
  const t2 = performance.now();
  const e = await pool.query("explain (analyze, buffers) select count(*) from users u where u.online_announced and u.last_seen_at > now() - interval '2 minutes'");
  console.log(pass, q, (t2 - t).toFixed(1), e.rows.map((r: any) => r["QUERY PLAN"]).filter((l: string) => /Buffers|Execution/.test(l)).join(" ; "));
}
await pool.end();
