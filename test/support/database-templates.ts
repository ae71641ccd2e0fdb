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

/**
 * The migrated template database on the PostgreSQL server at `adminUrl`: made once per set of migrations, under an
 * advisory lock so two runs beside each other make it once; templates of other migrations are dropped (one that a run
 * beside this one still copies from stays: PostgreSQL refuses to drop it).
 */
async function postgresTemplateOn(adminUrl: string, hash: string): Promise<string> {
  const name = `gm_template_${hash}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("select pg_advisory_lock(hashtext('gamermatch test templates'))");
    const { rows } = await admin.query<{ datname: string }>(String.raw`select datname from pg_database where datname like 'gm\_template\_%'`);
    for (const { datname } of rows.filter((row) => row.datname !== name)) await admin.query(`drop database if exists ${datname}`).catch(() => {});
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
  } finally {
    await admin.end();
  }
  return name;
}
