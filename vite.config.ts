/// <reference types="vitest/config" />
import os from "node:os";
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

export default defineConfig({
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

/**
 * Remix reloads the page whenever a route module fails to import, with no limit: after a deploy that
 * removed an old chunk that is what we want, but a chunk that stays broken would reload forever.
 * This swaps Remix's bare reload for app/lib/chunk-reload.ts, which reloads once per path within
 * 10 seconds and otherwise rethrows the error to the error boundary (SPEC §2, §8).
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
