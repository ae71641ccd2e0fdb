import { ConfigError, loadConfig } from "../app/infra/config";
import { prepareDatabase } from "./db/prepare";
import { runStorageCopyCommand } from "./storage-copy-command";

// `npm run storage:copy [-- --rewrite-urls]`: DATA_DIR/uploads into S3_BUCKET, safe to re-run (ADR 066). The database
// is opened only for --rewrite-urls, as `npm run db:migrate` opens it.
let database: Awaited<ReturnType<typeof prepareDatabase>> | undefined;
try {
  const config = loadConfig();
  const code = await runStorageCopyCommand(process.argv.slice(2), {
    config,
    db: async () => (database ??= await prepareDatabase(config)).db,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  await database?.close();
  process.exit(code);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  await database?.close().catch(() => {});
  process.exit(1);
}
