import { randomBytes } from "node:crypto";
import pg from "pg";

/** The benchmarks' PostgreSQL server: DATABASE_URL is its admin URL (a database to connect to while creating others). */
export const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** The URL of another database on the same server. */
export function databaseUrl(name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the admin database (CREATE or DROP DATABASE). */
export async function admin(query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/**
 * A benchmark's scratch database on the admin server: `gm_bench_<kind>_<random>`, or REUSE=<name> (a database a KEEP=1
 * run left, measured again without generating). `cleanUp` runs `release` (what still uses the database: the server,
 * the pools), then drops the database unless KEEP=1 or REUSE; it also runs on Ctrl-C and SIGTERM.
 */
export function scratchDatabase(kind: string, release: () => Promise<void>) {
  const keep = process.env.KEEP === "1";
  const reuse = process.env.REUSE;
  const name = reuse ?? `gm_bench_${kind}_${randomBytes(4).toString("hex")}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error("REUSE must be a database name");
  const url = databaseUrl(name);
  let created = false;
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await release();
      if (!created) return;
      if (keep || reuse) console.log(`KEEP=1: the database ${name} stays (${url})`);
      else await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error) => console.error(`could not drop ${name}: ${error.message}`));
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up…`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  return {
    name,
    url,
    reused: reuse !== undefined,
    /** Creates it (a reused one exists already). */
    async create() {
      if (!reuse) await admin(`CREATE DATABASE ${name}`);
      created = true;
    },
    cleanUp,
    /** Whether cleaning up has begun (a failure after Ctrl-C is not worth printing). */
    cleaning: () => cleaning !== undefined,
  };
}
