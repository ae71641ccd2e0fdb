/// <reference types="vitest/config" />
import os from "node:os";
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  resolve: {
    alias: { "~": path.resolve(__dirname, "app") },
  },
  server: {
    // The app is served by server/app.ts in middleware mode; see README.
    port: 3000,
  },
  build: {
    // Keep source maps out of the browser bundle; the server bundle has its own.
    sourcemap: false,
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: shellChunk } },
  },
  plugins: [
    tailwindcss(),
    !process.env.VITEST &&
      remix({
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
    chunkReloadGuard(),
  ],
  test: {
    // Vitest's default is one worker less than the cores: one on a 2-core machine, where the integration files (mostly
    // waiting on their servers and databases) then run one after another. Two there cut PostgreSQL's run from 303 to
    // 193 s and PGlite's from 356 to 255 s.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Each worker keeps the modules it loaded from one file to the next (ADR 065): isolated, every file imported the
    // built server and the app's modules afresh, 81 s of the PostgreSQL pass's time and 64 s of PGlite's spent loading
    // (318 → 253 s and 225 → 158 s without). Each file still starts its own server on a database of its own; a file
    // that needs a module's top-level state fresh must reset it itself.
    isolate: false,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.{ts,tsx}"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          // A migrated database made once per run, which each test's fresh database starts as (ADR 059).
          globalSetup: ["test/support/database-templates.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Two replicas behind HAProxy (test/cluster/, ADR 034): a step of its own in `npm test`, after the
        // integration tests, so that nothing else competes for the two cores while it measures reconnect times.
        extends: true,
        test: { name: "cluster", include: ["test/cluster/**/*.test.ts"], environment: "node", testTimeout: 180_000, hookTimeout: 120_000 },
      },
    ],
  },
}));

/**
 * Everything the root route imports statically runs on every page, so it travels as one file: a score of small chunks
 * would each pay gzip's overhead and compress without the others' repeated class names. The libraries every
 * page needs are a second file (`framework`); code that only some routes use stays with them.
 */
function shellChunk(id: string, { getModuleInfo }: { getModuleInfo: GetModuleInfo }) {
  // Message and constant areas (and the constants barrel) are left for Rollup to place with the code that reads them.
  // Rollup puts every static import of a manual chunk's modules into that chunk, so the shell's own code imports
  // areas directly (`~/lib/constants/site`, `~/lib/messages/error`), never a barrel over all of them (ADR 025).
  if (id === rootModule || id.startsWith(routesDirectory) || id === constantsBarrel || areaDirectories.some((areas) => id.startsWith(areas))) return undefined;
  everyPage ??= new Set([...staticImportsOf(rootModule, getModuleInfo), ...staticImportsOf(entryModule, getModuleInfo)]);
  withFramework ??= new Set([chunkReloadModule, ...staticImportsOf(chunkReloadModule, getModuleInfo)]);
  if (!everyPage.has(id)) return undefined;
  // Libraries apart from the app's own code: they change less often, so a deploy leaves their file cached. The guard
  // chunkReloadGuard puts inside @remix-run/react goes with it, or the two files would import each other.
  return id.startsWith(appDirectory) && !id.includes("node_modules") && !withFramework.has(id) ? "shell" : "framework";
}
type GetModuleInfo = (id: string) => { importedIds: readonly string[] } | null;
const appDirectory = path.resolve(__dirname, "app") + path.sep;
const routesDirectory = path.join(appDirectory, "routes") + path.sep;
const rootModule = path.join(appDirectory, "root.tsx");
const constantsBarrel = path.join(appDirectory, "lib", "constants.ts");
const areaDirectories = ["messages", "constants"].map((name) => path.join(appDirectory, "lib", name) + path.sep);
const entryModule = path.join(appDirectory, "entry.client.tsx");
const chunkReloadModule = path.join(appDirectory, "lib", "chunk-reload.ts");
let everyPage: Set<string> | undefined;
let withFramework: Set<string> | undefined;

/** The modules a module imports statically, all the way down. */
function staticImportsOf(start: string, getModuleInfo: GetModuleInfo) {
  const found = new Set<string>();
  const visit = (id: string) => {
    for (const imported of getModuleInfo(id)?.importedIds ?? []) {
      if (found.has(imported)) continue;
      found.add(imported);
      visit(imported);
    }
  };
  visit(start);
  return found;
}

/**
 * Remix reloads the page whenever a route module fails to import, with no limit: after a deploy that
 * removed an old chunk that is what we want, but a chunk that stays broken would reload forever.
 * This swaps Remix's bare reload for app/lib/chunk-reload.ts, which reloads once per path within
 * 10 seconds and otherwise rethrows the error to the error boundary (docs/product.md#screens, #errors).
 */
function chunkReloadGuard(): Plugin {
  const target = /@remix-run[\\/]react[\\/]dist[\\/]esm[\\/]routeModules\.js$/;
  const guard = path.resolve(__dirname, "app/lib/chunk-reload.ts");
  const bareReload = /window\.location\.reload\(\);\s*return new Promise\(\(\) => \{[^}]*\}\);/;
  return {
    name: "gamermatch:chunk-reload-guard",
    apply: "build",
    transform(code, id) {
      if (!target.test(id)) return null;
      if (!bareReload.test(code)) {
        this.error("@remix-run/react changed its route module loader; update chunkReloadGuard in vite.config.ts");
      }
      const patched = code.replace(bareReload, "return handleRouteModuleError(error, route, routeModulesCache);");
      return { code: `import { handleRouteModuleError } from ${JSON.stringify(guard)};\n${patched}`, map: null };
    },
  };
}
