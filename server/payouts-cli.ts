import { ConfigError, loadConfig } from "./config";
import { prepareDatabase } from "./db/prepare";
import { parsePayoutsArgs, PAYOUTS_USAGE, runPayoutsCommand } from "./payouts-command";

// `npm run payouts -- list|pay ID|reject ID`: opens the configured database as `npm run db:migrate` does.
const args = process.argv.slice(2);
if (!parsePayoutsArgs(args)) {
  console.error(PAYOUTS_USAGE);
  process.exit(1);
}
try {
  const database = await prepareDatabase(loadConfig());
  let code = 1;
  try {
    code = await runPayoutsCommand(args, { db: database.db, out: (line) => console.log(line), err: (line) => console.error(line) });
  } finally {
    await database.close();
  }
  process.exit(code);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
