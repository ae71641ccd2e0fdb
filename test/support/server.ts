import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { loadConfig, type AppConfig } from "../../app/infra/config";
import { createImageStorage } from "../../app/infra/storage";
import { createAppServer, type AppServer } from "../../server/app";
import { createTestDatabase, type TestDatabase } from "./database";

const buildPath = path.resolve("build/server/index.js");

export interface TestServer {
  url: string;
  database: TestDatabase;
  server: AppServer;
  config: AppConfig;
  /** fetch against the server, with a path relative to it. Redirects are not followed. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the built app in this process on a free port with a fresh database of its own
 * (see ./database.ts). Run `npm run build` first; `npm test` does.
 */
export async function startTestServer({
  seed = true,
  env = {},
  clock,
  databaseAdminUrl,
  readReplicaUrl,
}: {
  seed?: boolean;
  /** A PostgreSQL server of the test's own to make the database on (TEST_DATABASE_URL's, or PGlite, otherwise). */
  databaseAdminUrl?: string;
  /** A streaming replica of that server: the test database's name is put on it as DATABASE_READ_URL. */
  readReplicaUrl?: string;
  env?: Record<string, string>;
  /** The server's clock (the sweeper, one-time links); tests move it. */
  clock?: () => Date;
} = {}): Promise<TestServer> {
  if (!fs.existsSync(buildPath)) throw new Error("No build found: run `npm run build` before the integration tests");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-test-"));
  // No grace before the sockets move on shutdown (no load balancer here), unless a test asks for one.
  const baseEnv = { NODE_ENV: "test", DATA_DIR: dataDir, SEED: seed ? "demo" : "none", SHUTDOWN_GRACE_MS: "0", ...env };
  let config = loadConfig(baseEnv);
  const database = await createTestDatabase({
    seed,
    demoAccounts: seed,
    storage: createImageStorage(config),
    ...(databaseAdminUrl ? { engine: "postgres" as const, adminUrl: databaseAdminUrl } : {}),
  });
  if (readReplicaUrl) {
    const replica = new URL(readReplicaUrl);
    replica.pathname = new URL(database.url!).pathname;
    config = loadConfig({ ...baseEnv, DATABASE_URL: database.url!, DATABASE_READ_URL: replica.toString() });
  }
  const server = await createAppServer({
    config,
    database,
    build,
    clientDir: path.resolve("build/client"),
    shutdownTimeoutMs: 2_000,
    clock,
  });
  const { port } = await server.listen(0, "127.0.0.1");
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    database,
    server,
    config,
    request: (pathname, init) => fetch(new URL(pathname, url), { redirect: "manual", ...init }),
    async close() {
      await server.close();
      await database.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
