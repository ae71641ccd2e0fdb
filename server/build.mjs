// Bundles the Express server (server/ and migrations/) into build/index.js; packages stay external. Then writes the
// service worker for the client build (./build-service-worker.mjs) and compresses the browser's assets ahead of time.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";
import { build } from "esbuild";
import { buildServiceWorker } from "./build-service-worker.mjs";

await build({
  entryPoints: ["server/index.ts"],
  outfile: "build/index.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});

await buildServiceWorker({ clientDir: path.resolve("build/client") });

// The browser's assets never change once built (their names carry a hash), so they are compressed once, as hard as the
// formats allow, instead of by the compression middleware at level 6 on every request: zopfli writes gzip 3–4 % smaller
// than zlib's best, and brotli at quality 11 another 10 %. server/app.ts serves these files.
const assets = path.resolve("build/client/assets");
const files = fs.readdirSync(assets).filter((name) => /\.(js|css|svg)$/.test(name));
await Promise.all(
  files.map(async (name) => {
    const file = path.join(assets, name);
    const source = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, await gzipAsync(source, { numiterations: 15 }));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length } }));
  }),
);
