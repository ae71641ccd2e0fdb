import { ConfigError, loadConfig } from "../app/infra/config";
import { runStorageCopyCommand } from "./storage-copy-command";

// `npm run storage:copy`: DATA_DIR/uploads into S3_BUCKET, safe to re-run (ADR 066).
try {
  const code = await runStorageCopyCommand(process.argv.slice(2), { config: loadConfig(), out: (line) => console.log(line), err: (line) => console.error(line) });
  process.exit(code);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
