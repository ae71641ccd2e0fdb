// Bundles the Express server (server/ and migrations/) into build/index.js; packages stay external.
import { build } from "esbuild";

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
