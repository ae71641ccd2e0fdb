import { ConfigError, loadConfig } from "../../app/infra/config";
import { prepareDatabase } from "./prepare";

// `npm run db:migrate`: the same migrations (and first-run seed) the server applies at start-up.
try {
  const database = await prepareDatabase(loadConfig());
  console.log(`[db] ${database.engine} is up to date`);
  await database.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
