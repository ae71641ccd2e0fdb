// @ts-check
// The service worker (ADR 053): app/entry.worker.ts bundled with the list of the shell's files, read from the Remix
// manifest the client build just wrote, and a version of what it caches; written into build/client/sw.js by
// server/build.mjs after `remix vite:build`, and served from memory by the development server.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * What every page loads before it runs, as Remix's manifest names it (the manifest itself, the entry and the root
 * route with their imports and CSS), and the files those chunks name in turn (the stylesheet and the icon sprite,
 * imported as URLs by the root route). Route chunks stay out: a page fetches its own, and a deploy's guard
 * (app/lib/chunk-reload.ts) depends on a missing one failing as before.
 * @param {string} clientDir
 */
export function shellAssets(clientDir) {
  const assetsDir = path.join(clientDir, "assets");
  const manifests = fs.readdirSync(assetsDir).filter((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (manifests.length !== 1) throw new Error(`build-service-worker: expected one Remix manifest in ${assetsDir}, found ${manifests.length}`);
  const source = fs.readFileSync(path.join(assetsDir, manifests[0]), "utf8");
  const json = /^window\.__remixManifest=(\{[\s\S]*\});?\s*$/.exec(source)?.[1];
  if (!json) throw new Error(`build-service-worker: ${manifests[0]} is not Remix's manifest as 2.17 writes it`);
  /** @type {{ url: string, entry: Chunk, routes: { root: Chunk } }} */
  const manifest = JSON.parse(json);
  const { entry, routes } = manifest;
  const files = new Set([manifest.url, entry.module, ...entry.imports, ...(entry.css ?? []), routes.root.module, ...routes.root.imports, ...(routes.root.css ?? [])]);
  for (const file of [...files].filter((name) => name.endsWith(".js"))) {
    const code = fs.readFileSync(path.join(clientDir, file), "utf8");
    for (const [named] of code.matchAll(/\/assets\/[\w.-]+\.(?:css|svg|png|webp|woff2?)/g)) files.add(named);
  }
  for (const file of files) {
    if (!file.startsWith("/assets/") || !fs.existsSync(path.join(clientDir, file))) throw new Error(`build-service-worker: the shell names ${file}, which the build does not have`);
  }
  return [...files].sort();
}
/** @typedef {{ module: string, imports: string[], css?: string[] }} Chunk */

/**
 * Writes `sw.js` into the client build.
 * @param {{ clientDir: string }} options
 */
export async function buildServiceWorker({ clientDir }) {
  const assets = shellAssets(clientDir);
  const version = versionOf(assets, await renderOfflinePage());
  const code = await bundle(assets, version);
  fs.writeFileSync(path.join(clientDir, "sw.js"), code);
  console.log(`build-service-worker: sw.js ${(code.length / 1024).toFixed(1)} KB, version ${version}, ${assets.length} shell files`);
  return { assets, version };
}

/**
 * The development server's worker (server/app.ts), bundled afresh on each request: the same worker with no shell to
 * precache, since Vite serves its modules unhashed and rebuilds them as they are edited. Pushes, their clicks and the
 * offline page work as in a build.
 * @param {{ offlinePage: string }} options
 */
export async function developmentServiceWorker({ offlinePage }) {
  return bundle([], versionOf([], offlinePage));
}

/**
 * A version (the cache's name) that changes whenever what the cache holds could: the shell's file names (they carry
 * their contents' hashes) and the offline page. A worker whose code alone changed keeps its cache.
 * @param {string[]} assets
 * @param {string} offlinePage
 */
function versionOf(assets, offlinePage) {
  return createHash("sha256").update(JSON.stringify(assets)).update(offlinePage).digest("hex").slice(0, 16);
}

/**
 * app/entry.worker.ts as one classic script (a module worker is younger in Safari and Firefox) with the list and the
 * version in it. esbuild is imported here, not above: the server's bundle includes this file for development, and a
 * production install has no esbuild.
 * @param {string[]} assets
 * @param {string} version
 */
async function bundle(assets, version) {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: ["app/entry.worker.ts"],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: ["chrome109", "safari16.4", "firefox115"],
    minify: true,
    legalComments: "none",
    define: { __SHELL_ASSETS__: JSON.stringify(assets), __SHELL_VERSION__: JSON.stringify(version) },
    logLevel: "warning",
  });
  return result.outputFiles[0].text;
}

/** The offline page as the server will serve it (app/lib/offline-page.ts), rendered here from the same source. */
async function renderOfflinePage() {
  const { build } = await import("esbuild");
  const bundled = await build({ entryPoints: ["app/lib/offline-page.ts"], bundle: true, write: false, format: "esm", platform: "neutral", logLevel: "warning" });
  const module = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`);
  return /** @type {string} */ (module.offlinePageHtml());
}
