import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import pg from "pg";
import * as tar from "tar";
import { openDatabase } from "../../app/infra/db";
import { listLocalUploads, localPrivateUploadsDir, localUploadsDir } from "../../app/infra/storage";
import { ledgerProblems } from "../../app/models/coins.server";
import { backupSocketPath, copyFromRunningServer, serverAt, tarDataDir } from "./backup-socket";
import { countRows, queryOf, type RowCounts } from "./row-counts";

/**
 * `npm run db:backup -- FILE` and `npm run db:restore -- FILE [--force]` (ADR 050), apart from their entry
 * (backup-cli.ts). One backup is one file: a gzipped tar of
 *   manifest.json     what it holds: the engine, every table's row count, the uploads' number and size
 *   database.tar      PGlite: its data directory's files, copied by the running server (or here when none runs)
 *   database.dump     PostgreSQL: pg_dump's custom format (-Fc), taken in the snapshot the row counts were read in
 *   uploads/…         DATA_DIR/uploads (the images, named by their hash), unless they are in an object store's bucket
 *   uploads-private/… DATA_DIR/uploads-private (private pictures: chat images, ADR 069), likewise
 *   secrets.json      DATA_DIR/secrets.json when there is one (the generated secrets: sessions, unsubscribe links)
 * A restore goes only into an empty data directory or database (with --force, over one), and checks what it restored
 * against the manifest: every table's row count, the ledger's invariant, every image against its hash.
 */

export class BackupError extends Error {
  override name = "BackupError";
}

export interface BackupSettings {
  /** DATA_DIR: PGlite's directory is DATA_DIR/pglite, the uploads DATA_DIR/uploads. */
  dataDir: string;
  /** DATABASE_URL: set, the database is this PostgreSQL one. */
  databaseUrl?: string;
  /** With an object store (S3_BUCKET, or Supabase Storage) the uploads are in this bucket, not in DATA_DIR: the backup names it. */
  uploadsBucket?: string;
  /** Where pg_dump and pg_restore are (PG_BIN): PostgreSQL 15's by default, else whichever PATH finds. */
  pgBin?: string;
  out: (line: string) => void;
}

const FORMAT = "gamermatch-backup";
const VERSION = 1;

interface Manifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  createdAt: string;
  engine: "pglite" | "postgres";
  database: { file: string; bytes: number; from: string };
  tables: RowCounts;
  uploads: { files: number; bytes: number } | { bucket: string };
  secrets: boolean;
}

const engineOf = (settings: Pick<BackupSettings, "databaseUrl">) => (settings.databaseUrl ? "postgres" : "pglite");
const pgliteDirOf = (dataDir: string) => path.join(path.resolve(dataDir), "pglite");
const uploadsDirOf = (dataDir: string) => localUploadsDir({ DATA_DIR: dataDir });
/** The local disk's two folders of images, public and private (ADR 069), named alike under DATA_DIR and in a backup. */
const IMAGE_FOLDERS = ["uploads", "uploads-private"] as const;
type ImageFolder = (typeof IMAGE_FOLDERS)[number];
const imageFolderOf = (dataDir: string, folder: ImageFolder) =>
  folder === "uploads" ? uploadsDirOf(dataDir) : localPrivateUploadsDir({ DATA_DIR: dataDir });
/** Every image in the folders (DATA_DIR's, or a backup's staging), as `{folder}/{kind}/{sha256}.{ext}`. */
const listImages = (dirOf: (folder: ImageFolder) => string) => IMAGE_FOLDERS.flatMap((folder) => listLocalUploads(dirOf(folder)).map((name) => `${folder}/${name}`));
/** An image's file under DATA_DIR from its name in a backup (`{folder}/{key}`). */
const imageFileOf = (dataDir: string, name: string) => {
  const [folder, ...key] = name.split("/");
  return path.join(imageFolderOf(dataDir, folder as ImageFolder), ...key);
};
const secretsFileOf = (dataDir: string) => path.join(path.resolve(dataDir), "secrets.json");

/** Takes a backup into `file` (a new file unless `force`); answers the manifest it wrote. */
export async function takeBackup(settings: BackupSettings & { file: string; force?: boolean }): Promise<Manifest> {
  const started = performance.now();
  const { out } = settings;
  const file = path.resolve(settings.file);
  if (fs.existsSync(file) && !settings.force) throw new BackupError(`${file} already exists: name a new file (or pass --force to replace it)`);
  const engine = engineOf(settings);
  const staging = fs.mkdtempSync(path.join(path.dirname(file), `.${path.basename(file)}.partial-`));
  try {
    let database: Manifest["database"];
    let tables: RowCounts;
    if (engine === "pglite") {
      ({ database, tables } = await copyPglite(settings.dataDir, path.join(staging, "database.tar")));
    } else {
      ({ database, tables } = await dumpPostgres(settings, path.join(staging, "database.dump")));
    }
    out(`[backup] ${engine}: ${describeTables(tables)}, ${formatBytes(database.bytes)} from ${database.from}`);

    const secrets = fs.existsSync(secretsFileOf(settings.dataDir));
    if (secrets) fs.copyFileSync(secretsFileOf(settings.dataDir), path.join(staging, "secrets.json"));
    for (const folder of settings.uploadsBucket ? [] : IMAGE_FOLDERS) {
      const dir = imageFolderOf(settings.dataDir, folder);
      if (fs.existsSync(dir)) fs.symlinkSync(dir, path.join(staging, folder), "dir");
    }
    // After the database: an image its rows name was stored before the row (app/models/uploads.server.ts), so it is here.
    // One deleted meanwhile (an account leaving) fails the archive: listed again, it is left out.
    const partial = path.join(staging, "backup.tar.gz");
    const archive = async () => {
      const files = settings.uploadsBucket ? [] : listImages((folder) => imageFolderOf(settings.dataDir, folder));
      const uploads: Manifest["uploads"] = settings.uploadsBucket
        ? { bucket: settings.uploadsBucket }
        : { files: files.length, bytes: files.reduce((sum, name) => sum + fs.statSync(imageFileOf(settings.dataDir, name)).size, 0) };
      const manifest: Manifest = { format: FORMAT, version: VERSION, createdAt: new Date().toISOString(), engine, database, tables, uploads, secrets };
      fs.writeFileSync(path.join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      // 0600 from the start: it holds everyone's data, and the secrets.
      fs.writeFileSync(partial, "", { mode: 0o600 });
      const entries = ["manifest.json", database.file, ...files, ...(secrets ? ["secrets.json"] : [])];
      await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, entries);
      return manifest;
    };
    const manifest = await archive().catch((error: NodeJS.ErrnoException) => {
      const gone = error.path ?? "";
      const folders = IMAGE_FOLDERS.flatMap((folder) => [path.join(staging, folder), imageFolderOf(settings.dataDir, folder)]);
      if (error.code === "ENOENT" && folders.some((dir) => gone.startsWith(dir))) return archive();
      throw error;
    });
    if ("bucket" in manifest.uploads) {
      out(`[backup] uploads: in the object store's bucket "${manifest.uploads.bucket}", not in this file: back that bucket up with the store's own tools`);
    } else {
      out(`[backup] uploads: ${manifest.uploads.files} files, ${formatBytes(manifest.uploads.bytes)} (${uploadsDirOf(settings.dataDir)})`);
    }
    // Renamed into place: a file by that name is always a whole backup.
    fs.renameSync(partial, file);
    out(`[backup] wrote ${file}: ${formatBytes(fs.statSync(file).size)} in ${formatSeconds(performance.now() - started)}`);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** PGlite's data directory as a tar: from the server that runs on it, or, when none does, opened here. */
async function copyPglite(dataDir: string, file: string) {
  const socketPath = backupSocketPath(dataDir);
  const running = await copyFromRunningServer(socketPath, file);
  if (running) return { tables: running.tables, database: { file: path.basename(file), bytes: running.bytes, from: `the running server (${socketPath})` } };
  const directory = pgliteDirOf(dataDir);
  if (!fs.existsSync(path.join(directory, "PG_VERSION"))) throw new BackupError(`no database in ${directory} (DATA_DIR=${dataDir}; DATABASE_URL is not set)`);
  // PGlite takes no lock on its directory: two processes would both write to it. A server leaves this file while it
  // has the directory open (and a crash leaves it behind).
  if (fs.existsSync(path.join(directory, "postmaster.pid"))) {
    throw new BackupError(
      `${directory} is open in another process (postmaster.pid) and no server answered on ${socketPath}. ` +
        "A server of this version answers there: stop whatever else has the directory open; if nothing does (a crash " +
        "left the file), start the server, or remove postmaster.pid, and run this again",
    );
  }
  const database = await openDatabase({ dataDir: directory });
  try {
    const out = fs.createWriteStream(file, { mode: 0o600 });
    const { tables, bytes } = await tarDataDir(database, () => out);
    out.end();
    await finished(out);
    return { tables, database: { file: path.basename(file), bytes, from: `${directory} (no server running)` } };
  } finally {
    await database.close();
  }
}

/**
 * pg_dump -Fc in the snapshot of a transaction that counts the rows first: the counts are exactly what the dump holds,
 * however many writes go on meanwhile.
 */
async function dumpPostgres(settings: BackupSettings, file: string) {
  const client = new pg.Client({ connectionString: settings.databaseUrl });
  await client.connect();
  try {
    await client.query("begin transaction isolation level repeatable read, read only");
    const { rows } = await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot");
    const tables = await countRows(async (text) => (await client.query(text)).rows);
    await runPgTool(settings, "pg_dump", ["--format=custom", `--snapshot=${rows[0]!.snapshot}`, `--file=${file}`]);
    await client.query("commit");
    return { tables, database: { file: path.basename(file), bytes: fs.statSync(file).size, from: `pg_dump -Fc (${redact(settings.databaseUrl!)})` } };
  } finally {
    await client.end();
  }
}

/** Restores `file` into the configured, empty, data directory or database (with `force`, over what is there). */
export async function restoreBackup(settings: BackupSettings & { file: string; force?: boolean }): Promise<{ ok: boolean; manifest: Manifest }> {
  const started = performance.now();
  const { out } = settings;
  const file = path.resolve(settings.file);
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  const engine = engineOf(settings);
  const dataDir = path.resolve(settings.dataDir);
  const pgliteDir = pgliteDirOf(dataDir);
  if (engine === "pglite") {
    // Even with --force: the running server would go on writing the directory it has open.
    if ((await serverAt(backupSocketPath(dataDir))) === "running") throw new BackupError(`a server is running on ${dataDir}: stop it before restoring into its data directory`);
    if (isNonEmptyDirectory(pgliteDir) && !settings.force) {
      throw new BackupError(`${pgliteDir} already holds a database: a restore goes into an empty data directory only (--force moves this one aside first)`);
    }
  } else if ((await countUserTables(settings.databaseUrl!)) > 0 && !settings.force) {
    throw new BackupError(`${redact(settings.databaseUrl!)} is not empty: a restore goes into an empty database only (--force replaces what the backup holds)`);
  }

  fs.mkdirSync(dataDir, { recursive: true });
  // In DATA_DIR, so that the restored directory and images are moved, not copied, into place.
  const staging = fs.mkdtempSync(path.join(dataDir, ".restore-"));
  try {
    await tar.extract({ file, cwd: staging, strict: true });
    const manifest = readManifest(staging, file);
    if (manifest.engine !== engine) {
      throw new BackupError(
        manifest.engine === "pglite"
          ? "this backup is of the embedded PGlite database: unset DATABASE_URL to restore it into DATA_DIR/pglite"
          : "this backup is of a PostgreSQL database: set DATABASE_URL to the empty database to restore it into",
      );
    }
    out(`[restore] ${file}: ${manifest.engine}, taken ${manifest.createdAt}, ${describeTables(manifest.tables)}`);

    const images = checkUploads(staging, manifest);
    if (!images.ok) {
      const uploads = manifest.uploads as { files: number };
      out(`[restore] uploads: ${images.files.length} of ${uploads.files} files; ${images.damaged.length} do NOT match their hash${images.damaged.length > 0 ? `: ${images.damaged.join(", ")}` : ""}`);
      out("[restore] nothing was restored: the backup's images are not what its manifest says");
      return { ok: false, manifest };
    }
    let tables: RowCounts;
    let ledger: string[];
    if (engine === "pglite") {
      // Unpacked, opened and checked beside; only then moved into place, so that a failed restore replaces nothing.
      const restored = path.join(staging, "pglite");
      fs.mkdirSync(restored, { mode: 0o700 });
      await tar.extract({ file: path.join(staging, manifest.database.file), cwd: restored, strict: true });
      const database = await openDatabase({ dataDir: restored });
      try {
        ({ tables, ledger } = await check(database.db));
      } finally {
        await database.close();
      }
      if (!sameCounts(manifest.tables, tables) || ledger.length > 0) {
        printCheck(out, manifest.tables, tables, ledger);
        out(`[restore] nothing was restored: the copy does not match what the backup says it holds`);
        return { ok: false, manifest };
      }
      if (isNonEmptyDirectory(pgliteDir)) {
        const aside = `${pgliteDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
        fs.renameSync(pgliteDir, aside);
        out(`[restore] --force: the database that was there is now ${aside}`);
      }
      fs.rmSync(pgliteDir, { recursive: true, force: true });
      fs.renameSync(restored, pgliteDir);
      out(`[restore] database restored into ${pgliteDir}`);
    } else {
      const clean = settings.force ? ["--clean", "--if-exists"] : [];
      // Objects become the restoring user's (DATABASE_URL's), whoever owned them where the backup was taken.
      await runPgTool(settings, "pg_restore", ["--no-owner", "--no-acl", "--single-transaction", "--exit-on-error", ...clean, path.join(staging, manifest.database.file)]);
      out(`[restore] database restored into ${redact(settings.databaseUrl!)}${settings.force ? " (--force: what the backup holds was dropped and recreated)" : ""}`);
      const database = await openDatabase({ url: settings.databaseUrl, poolMax: 1 });
      try {
        ({ tables, ledger } = await check(database.db));
      } finally {
        await database.close();
      }
    }

    const ok = printCheck(out, manifest.tables, tables, ledger);
    restoreUploads({ staging, dataDir, manifest, images, out });
    if (manifest.secrets) {
      if (fs.existsSync(secretsFileOf(dataDir))) out(`[restore] secrets: ${secretsFileOf(dataDir)} is kept (the backup's are in ${file}, secrets.json)`);
      else {
        fs.writeFileSync(secretsFileOf(dataDir), fs.readFileSync(path.join(staging, "secrets.json")), { mode: 0o600 });
        out(`[restore] secrets: restored into ${secretsFileOf(dataDir)} (signed-in sessions and mailed links stay valid)`);
      }
    }
    out(`[restore] ${ok ? "done" : "done, but the check FAILED (above)"} in ${formatSeconds(performance.now() - started)}`);
    return { ok, manifest };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** The restored database's row counts and the ledger's invariant (app/models/coins.server.ts). */
async function check(db: Parameters<typeof ledgerProblems>[0]) {
  const tables = await countRows(queryOf(db));
  // A backup taken before a later migration may lack a column the check reads: that is said, not thrown.
  const ledger = await ledgerProblems(db).catch((error: Error) => [`could not be checked: ${error.message}`]);
  return { tables, ledger };
}

/** Prints every table's count in the backup and restored, and the ledger's state; answers whether all agree. */
function printCheck(out: BackupSettings["out"], expected: RowCounts, actual: RowCounts, ledger: string[]) {
  const names = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  const width = Math.max(5, ...names.map((name) => name.length));
  out(`[restore] ${"table".padEnd(width)}  ${"backup".padStart(9)}  ${"restored".padStart(9)}`);
  for (const name of names) {
    const [before, after] = [expected[name], actual[name]];
    out(`[restore] ${name.padEnd(width)}  ${String(before ?? "-").padStart(9)}  ${String(after ?? "-").padStart(9)}${before === after ? "" : "  MISMATCH"}`);
  }
  const counted = sameCounts(expected, actual);
  out(counted ? `[restore] rows: every table's count matches the backup (${describeTables(actual)})` : "[restore] rows: MISMATCH (above)");
  if (ledger.length === 0) out("[restore] ledger: adds up (each wallet is the sum of its log; coins bought, less paid out and forfeited, = balances + escrow + fees)");
  else for (const problem of ledger) out(`[restore] ledger: ${problem}`);
  return counted && ledger.length === 0;
}

/** The backup's images, each checked against the hash it is named by, and whether they are all the manifest says. */
function checkUploads(staging: string, manifest: Manifest) {
  if ("bucket" in manifest.uploads) return { files: [], damaged: [], ok: true };
  const files = listImages((folder) => path.join(staging, folder));
  const damaged = files.filter((name) => {
    const hash = /([0-9a-f]{64})\.[a-z]+$/.exec(name)?.[1];
    return hash !== createHash("sha256").update(fs.readFileSync(path.join(staging, name))).digest("hex");
  });
  return { files, damaged, ok: damaged.length === 0 && files.length === manifest.uploads.files };
}

/** Moves the backup's images into DATA_DIR/uploads and DATA_DIR/uploads-private. */
function restoreUploads({ staging, dataDir, manifest, images, out }: { staging: string; dataDir: string; manifest: Manifest; images: ReturnType<typeof checkUploads>; out: BackupSettings["out"] }) {
  if ("bucket" in manifest.uploads) {
    out(`[restore] uploads: in the object store's bucket "${manifest.uploads.bucket}", not in this backup`);
    return;
  }
  for (const name of images.files) {
    const target = imageFileOf(dataDir, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    // Named by their content: one already there is the same image.
    if (!fs.existsSync(target)) fs.renameSync(path.join(staging, name), target);
  }
  out(`[restore] uploads: ${images.files.length} of ${manifest.uploads.files} files into ${uploadsDirOf(dataDir)} and ${imageFolderOf(dataDir, "uploads-private")}, each matching its hash`);
}

function readManifest(staging: string, file: string): Manifest {
  const manifestFile = path.join(staging, "manifest.json");
  const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Partial<Manifest>) : undefined;
  if (manifest?.format !== FORMAT) throw new BackupError(`${file} is not a GamerMatch backup (no manifest.json of ours)`);
  if (manifest.version !== VERSION) throw new BackupError(`${file} is a backup of format version ${manifest.version}; this version reads ${VERSION}`);
  return manifest as Manifest;
}

const isNonEmptyDirectory = (directory: string) => fs.existsSync(directory) && fs.readdirSync(directory).length > 0;

/** Tables in the database outside PostgreSQL's own schemas: any at all, and it is not empty. */
async function countUserTables(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/**
 * Runs pg_dump or pg_restore against DATABASE_URL: its password in PGPASSWORD rather than on the command line, where
 * every user of the machine could read it.
 */
async function runPgTool(settings: BackupSettings, program: "pg_dump" | "pg_restore", args: string[]) {
  const url = new URL(settings.databaseUrl!);
  const password = decodeURIComponent(url.password);
  url.password = "";
  const bin = settings.pgBin ?? "/usr/lib/postgresql/15/bin";
  const command = fs.existsSync(path.join(bin, program)) ? path.join(bin, program) : program;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, ["--no-password", `--dbname=${url}`, ...args], { env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", (error) => reject(new BackupError(`${command}: ${error.message}`)));
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new BackupError(`${program} failed (exit ${code}):\n${stderr.trim()}`))));
  });
}

const sameCounts = (a: RowCounts, b: RowCounts) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
const describeTables = (tables: RowCounts) => `${Object.keys(tables).length} tables, ${Object.values(tables).reduce((sum, n) => sum + n, 0).toLocaleString("en")} rows`;
const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
const formatBytes = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);
const formatSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
