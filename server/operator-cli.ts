import { userInfo } from "node:os";
import { ConfigError, loadConfig } from "../app/infra/config";
import type { Database } from "../app/infra/db/tables";
import type { Operator } from "../app/models/operator-audit.server";
import { prepareDatabase } from "./db/prepare";

/** Who the audit trail says acted from a shell: no account, `cli:` and the OS user who ran the command. */
export function shellOperator(): Operator {
  let name = process.env.USER ?? process.env.USERNAME ?? "";
  try {
    name = userInfo().username || name;
  } catch {
    // A user without a passwd entry (some containers): the environment's name, if any.
  }
  return { id: null, label: `cli:${name || "unknown"}`.slice(0, 200) };
}

/**
 * The shell of an operator's command (`npm run payouts`, `npm run moderation`, `npm run two-step`, `npm run operators`): opens the configured database as
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
