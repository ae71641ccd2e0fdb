import { ConfigError, loadConfig } from "../app/infra/config";
import type { Database } from "../app/infra/db/tables";
import { prepareDatabase } from "./db/prepare";

/**
 * The shell of an operator's command (`npm run payouts`, `npm run moderation`): opens the configured database as
 * `npm run db:migrate` does, runs the command with console output, closes the database and exits with its code.
 */
export async function runOperatorCli(run: (io: { db: Database; out: (line: string) => void; err: (line: string) => void }) => Promise<number>) {
  try {
    const database = await prepareDatabase(loadConfig());
    let code = 1;
    try {
      code = await run({ db: database.db, out: (line) => console.log(line), err: (line) => console.error(line) });
    } finally {
      await database.close();
    }
    process.exit(code);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
