import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { Kysely } from "kysely";
import { openDatabase } from "../../app/infra/db";
import { PGliteDialect } from "../../app/infra/db/pglite-dialect";
import type { Database, DB } from "../../app/infra/db/tables";
import { migrateToLatest } from "../../server/db/migrate";

/**
 * The integration tests' global setup (ADR 060): a database with every migration applied, made once per run, which
 * each test's fresh database starts as (./database.ts) instead of running the migrations itself.
 *
 * - PGlite: a fresh in-memory PGlite spends 4-8 s of CPU on its initdb on this 2-core machine and 0.6 s on the
 *   migrations; one loaded from a dump of a migrated one is ready in under a second. The dump is a file named by a hash
 *   of the migrations and PGlite's version, kept between runs in the OS's temporary directory.
 * - PostgreSQL: `CREATE DATABASE … TEMPLATE gm_template_<hash>` copies a migrated database in about 80 ms, where
 *   creating one and migrating it took about a second.
 *
 * Each test database is still a database of its own, made by the engine itself; database.test.ts still runs the
 * migrations on an empty database on both engines (`migrate: false`, then migrateToLatest).
 */

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite's dump (a tar file). */
    pgliteTemplate: string | undefined;
    /** The migrated PostgreSQL template database's name on TEST_DATABASE_URL's server, when it is set. */
    postgresTemplate: string | undefined;
  }
}

/** What the migrations are: their files' contents, and the PGlite that runs them. */
export function migrationsHash(): string {
  const hash = createHash("sha256");
  const directory = path.resolve("migrations");
  for (const name of fs.readdirSync(directory).sort()) hash.update(name).update(fs.readFileSync(path.join(directory, name)));
  hash.update(JSON.parse(fs.readFileSync(path.resolve("node_modules/@electric-sql/pglite/package.json"), "utf8")).version);
  return hash.digest("hex").slice(0, 12);
}

export default async function setup(project: TestProject) {
  const hash = migrationsHash();
  const url = process.env.TEST_DATABASE_URL;
  const [pgliteTemplate, postgresTemplate] = await Promise.all([pgliteDump(hash), url ? postgresTemplateOn(url, hash) : undefined]);
  project.provide("pgliteTemplate", pgliteTemplate);
  project.provide("postgresTemplate", postgresTemplate);
}

/** The migrated PGlite's dump: made once per set of migrations; a later run finds it made and uses it. */
async function pgliteDump(hash: string): Promise<string> {
  const file = path.join(os.tmpdir(), `gamermatch-pglite-template-${hash}.tar`);
  if (fs.existsSync(file)) return file;
  const client = await PGlite.create({ dataDir: "memory://" });
  const db: Database = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  try {
    await migrateToLatest(db);
    const dump = await client.dumpDataDir("none");
    // Written beside its final name and renamed, so a run beside this one never reads half a file.
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await db.destroy();
  }
  return file;
}

/** How long a template of other migrations stays after its last run: a day. */
const TEMPLATE_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The migrated template database on the PostgreSQL server at `adminUrl`: made once per set of migrations, under an
 * advisory lock so two runs beside each other make it once. Each run marks the template it uses with the time (the
 * database's comment); templates of other migrations unused for a day are dropped. Another checkout's run on the same
 * server (a branch with a migration of its own) uses its own template all along: dropping every other template, as
 * this once did, failed that run's next copy with "template database … does not exist".
 */
async function postgresTemplateOn(adminUrl: string, hash: string): Promise<string> {
  const name = `gm_template_${hash}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("select pg_advisory_lock(hashtext('gamermatch test templates'))");
    const { rows } = await admin.query<{ datname: string; used: string | null }>(
      String.raw`select datname, shobj_description(oid, 'pg_database') as used from pg_database where datname like 'gm\_template\_%'`,
    );
    const unusedSince = Date.now() - TEMPLATE_KEPT_MS;
    for (const { datname, used } of rows) {
      if (datname === name || (used !== null && Date.parse(used) > unusedSince)) continue;
      await admin.query(`drop database if exists ${datname}`).catch(() => {});
    }
    if (!rows.some((row) => row.datname === name)) {
      // Made under a name of its own and renamed once migrated: a run stopped half way leaves no half-made template.
      const making = `${name}_making`;
      await admin.query(`drop database if exists ${making}`);
      await admin.query(`create database ${making}`);
      const url = new URL(adminUrl);
      url.pathname = `/${making}`;
      const handle = await openDatabase({ url: url.toString(), poolMax: 1 });
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      await admin.query(`alter database ${making} rename to ${name}`);
    }
    await admin.query(`comment on database ${name} is '${new Date().toISOString()}'`);
  } finally {
    await admin.end();
  }
  return name;
}
