// @ts-check
// HAProxy for the cluster (ADR 034): found on PATH, or installed as Debian's package the way the end-to-end tests
// obtain their browser (server/debian-packages.mjs). Plain JavaScript so that `npm test` (test/run.mjs) can make sure
// of it before the cluster test, as it does of the browser before Playwright. Run directly, it does that and prints
// the path it found.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { aptInstallSteps, canAptInstall, isExecutable, runSteps } from "../debian-packages.mjs";

export const MISSING_HAPROXY_LINE =
  "No HAProxy for the cluster: install it (Debian: `apt-get install haproxy`; elsewhere your system's package) so that `haproxy` is on PATH.";

/**
 * Where HAProxy is: on PATH, or in /usr/sbin (where Debian puts it, which a non-root PATH may lack).
 * @param {Record<string, string | undefined>} [env]
 * @returns {string | undefined}
 */
export function findHaproxy(env = process.env) {
  const dirs = [...(env.PATH ?? "").split(path.delimiter).filter(Boolean), "/usr/sbin", "/usr/local/sbin"];
  return dirs.map((dir) => path.join(dir, "haproxy")).find(isExecutable);
}

/**
 * HAProxy's path: found, or installed (as root on Debian). `{ path }` or `{ error }` (one line).
 * @param {{ find?: () => string | undefined, install?: (() => boolean) | null, log?: (line: string) => void }} [options]
 *   `install` answers whether installing worked; null where this machine cannot (not root on Debian).
 * @returns {{ path: string } | { error: string }}
 */
export function ensureHaproxy({
  find = () => findHaproxy(),
  install = canAptInstall() ? () => runSteps(aptInstallSteps(["haproxy"])) : null,
  log = (line) => console.log(`[cluster] ${line}`),
} = {}) {
  const found = find();
  if (found) return { path: found };
  if (install) {
    log("no HAProxy found; installing Debian's haproxy package (apt-get install -y haproxy)");
    if (!install()) log("Debian's haproxy package could not be installed");
    const installed = find();
    if (installed) return { path: installed };
  }
  return { error: MISSING_HAPROXY_LINE };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = ensureHaproxy();
  if ("error" in result) {
    console.error(result.error);
    process.exit(1);
  }
  console.log(result.path);
}
