// @ts-check
import fs from "node:fs";
import path from "node:path";

/**
 * How production runs the built server: the environment variables and Node flags of `npm start` in package.json
 * (`[NAME=value …] node [--flag …] build/index.js`), the one place they are written. The cluster's replicas, the smoke
 * set's server and the benches start `build/index.js` with them, so that every way of running the build gets the same
 * memory settings (ADR 041, ADR 047). Plain JavaScript so that the smoke runner (test/support/smoke-against-build.mjs)
 * can read it too.
 * @param {string} [cwd]
 * @returns {{ env: Record<string, string>, flags: string[] }}
 */
export function productionStart(cwd = process.cwd()) {
  const { scripts } = /** @type {{ scripts: Record<string, string> }} */ (JSON.parse(fs.readFileSync(path.join(cwd, "package.json"), "utf8")));
  const command = /^((?:\w+=\S+ )*)node ((?:--\S+ )*)build\/index\.js$/.exec(scripts.start ?? "");
  if (!command) throw new Error("package.json: `npm start` no longer reads `[NAME=value …] node [--flag …] build/index.js`");
  /** @param {string} text */
  const words = (text) => text.trim().split(" ").filter(Boolean);
  return {
    env: Object.fromEntries(words(command[1] ?? "").map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)])),
    flags: words(command[2] ?? ""),
  };
}
