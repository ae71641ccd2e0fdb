// @ts-check
// Debian packages the tools need when the machine lacks them: the end-to-end tests' Chromium and Japanese font
// (test/support/chromium.mjs) and the cluster's HAProxy (server/cluster/). One rule for all of them: apt-get, only as
// root on Debian (what CI and a fresh developer machine here are); anywhere else the caller says what to install.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

/** @typedef {[string, string[]]} Step */

export const isExecutable = (/** @type {string} */ file) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * Whether this machine installs Debian packages itself: Linux, Debian, apt-get present, running as root.
 * @param {{ platform?: string, uid?: number, debian?: boolean, hasApt?: boolean }} [machine]
 */
export function canAptInstall({ platform = process.platform, uid = process.getuid?.(), debian = fs.existsSync("/etc/debian_version"), hasApt = isExecutable("/usr/bin/apt-get") } = {}) {
  return platform === "linux" && debian && hasApt && uid === 0;
}

/**
 * The commands that install Debian packages: the package lists first (a fresh machine has none), then the packages.
 * @param {string[]} packages
 * @returns {Step[]}
 */
export function aptInstallSteps(packages) {
  return [
    ["apt-get", ["update", "-qq"]],
    ["apt-get", ["install", "-y", "-qq", ...packages]],
  ];
}

/**
 * Runs commands one after another, their output shown; true when every one succeeded. Non-interactive, and without
 * starting the services a package brings (a container has no init to hand them to, and nothing here wants them).
 * @param {Step[]} steps
 */
export function runSteps(steps) {
  const noServices = prepareNoServicesPolicy();
  try {
    for (const [command, args] of steps) {
      const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
      if (result.status !== 0) return false;
    }
    return true;
  } finally {
    noServices?.();
  }
}

/**
 * Debian's way to keep `apt-get install` from starting a package's service (invoke-rc.d asks /usr/sbin/policy-rc.d;
 * exit 101 means "not now"). Only when the machine has no policy of its own, and removed afterwards.
 * @returns {(() => void) | undefined} what undoes it
 */
function prepareNoServicesPolicy() {
  const policy = "/usr/sbin/policy-rc.d";
  if (!canAptInstall() || fs.existsSync(policy)) return undefined;
  try {
    fs.writeFileSync(policy, "#!/bin/sh\n# written by GamerMatch's server/debian-packages.mjs for one apt-get run\nexit 101\n", { mode: 0o755 });
  } catch {
    return undefined;
  }
  return () => fs.rmSync(policy, { force: true });
}
