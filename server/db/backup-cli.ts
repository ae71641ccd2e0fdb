import path from "node:path";
import { ConfigError, parseEnv } from "../../app/infra/config";
import { BackupError, restoreBackup, takeBackup } from "./backup";

// `npm run db:backup -- FILE [--force]` and `npm run db:restore -- FILE [--force]` (ADR 050, docs/operations.md#backups).
const USAGE = `usage: npm run db:backup -- FILE [--force]     one file holding the database and the uploads (--force replaces FILE)
       npm run db:restore -- FILE [--force]    into an empty DATA_DIR/pglite or DATABASE_URL, then checks it
                                               (--force: over a database that is there; PGlite's is moved aside)`;

const [command, ...rest] = process.argv.slice(2);
const force = rest.includes("--force");
const files = rest.filter((arg) => arg !== "--force");
if ((command !== "backup" && command !== "restore") || files.length !== 1 || files[0]!.startsWith("-")) {
  console.error(USAGE);
  process.exit(1);
}

try {
  // parseEnv, not loadConfig: that would generate secrets.json into DATA_DIR, and a restore keeps the backup's instead.
  const env = parseEnv(process.env);
  const settings = {
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    // The same precedence as createImageStorage (ADR 066): an S3-API bucket, else Supabase Storage, else DATA_DIR/uploads.
    uploadsBucket: env.S3_BUCKET ?? (env.SUPABASE_URL ? env.SUPABASE_STORAGE_BUCKET : undefined),
    pgBin: process.env.PG_BIN,
    file: files[0]!,
    force,
    out: (line: string) => console.log(line),
  };
  if (command === "backup") {
    await takeBackup(settings);
    process.exit(0);
  }
  const { ok } = await restoreBackup(settings);
  process.exit(ok ? 0 : 1);
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof BackupError ? `[${command}] ${error.message}` : error);
  process.exit(1);
}
