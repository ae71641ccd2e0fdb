import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { ConfigError, loadConfig, type AppConfig } from "../app/infra/config";
import { log } from "../app/infra/logger.server";
import { createAppServer } from "./app";
import { serveBackups } from "./db/backup-socket";
import { prepareDatabase } from "./db/prepare";

async function main() {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      log.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await prepareDatabase(config);
  const build =
    config.NODE_ENV === "development"
      ? undefined
      : ((await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild);
  const server = await createAppServer({ config, database, build });
  // `npm run db:backup` while the app runs on PGlite, over a socket in DATA_DIR (ADR 050); on PostgreSQL, pg_dump's job.
  const backups = await serveBackups({ dataDir: config.DATA_DIR, database });
  // Signal handlers before the ready line: whoever waits for that line may signal at once.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ event: "shutdown", signal }, `server: ${signal} again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    log.info({ event: "shutdown", signal }, `server: ${signal}, finishing requests and closing`);
    Promise.all([backups?.close(), server.close()]).then(
      () => {
        log.info({ event: "shutdown" }, "server: closed");
        process.exit(0);
      },
      (error) => {
        log.error({ event: "shutdown", err: error }, "server: shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  const address = await server.listen(config.PORT, config.HOST);
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
  log.info({ event: "listening", port: address.port, engine: database.engine }, `GamerMatch: http://${host}:${address.port} (${config.NODE_ENV}, ${database.engine})`);
}

main().catch((error) => {
  log.fatal({ err: error }, "server: failed to start");
  process.exit(1);
});
