import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The floors check (`npm run lint:deps`, .dependency-cruiser.cjs, ADR 036) run on small trees laid out like ours: it
 * passes a tree whose imports point down, and fails one with an import that climbs a floor or goes in a circle.
 */
const repo = path.resolve(__dirname, "../..");
const depcruise = path.join(repo, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const trees: string[] = [];

function tree(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-floors-"));
  trees.push(dir);
  const tsconfig = { compilerOptions: { baseUrl: ".", paths: { "~/*": ["./app/*"] }, jsx: "react-jsx", moduleResolution: "Bundler", module: "ESNext" } };
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/**
 * dependency-cruiser's verdict on a tree. Only its own verdict line counts as the check's output: a tool that did not
 * run (a Node it refuses, a config it cannot load) fails the test saying so, never passes for a violation report.
 */
export function check(dir: string) {
  // The test's own Node runs the tool, so it never depends on which `node` comes first on PATH.
  const result = spawnSync(process.execPath, [depcruise, "--config", path.join(repo, ".dependency-cruiser.cjs"), "--output-type", "err", "app", "server"], {
    cwd: dir,
    encoding: "utf8",
  });
  const output = `${result.stdout}${result.stderr}`;
  const verdict = verdictOf(result.status, output);
  if ("failure" in verdict) throw new Error(verdict.failure);
  return { status: result.status, output };
}

/** A report of violations (exit ≠ 0 with its "x N dependency violations" line) or a clean pass, else a tool failure. */
export function verdictOf(status: number | null, output: string): { violations: number } | { failure: string } {
  const found = /^x (\d+) dependency violations? \(/m.exec(output);
  if (status !== 0 && found && Number(found[1]) > 0) return { violations: Number(found[1]) };
  if (status === 0 && /no dependency violations found/.test(output)) return { violations: 0 };
  return { failure: `dependency-cruiser did not check the tree (exit ${status}), so this is no verdict on the floors:\n${output.trim().split("\n").slice(0, 8).join("\n")}` };
}

/** A small house: host → route → component → model → infra → lib, every import pointing down. */
const house = {
  "server/app.ts": `import { loader } from "../app/routes/_index";\nexport const app = loader;\n`,
  "app/routes/_index.tsx": `import { Card } from "~/components/card";\nimport { listThings } from "~/models/things.server";\nexport const loader = () => listThings();\nexport default Card;\n`,
  "app/components/card.tsx": `import type { Thing } from "~/models/things.server";\nexport const Card = (thing: Thing) => thing.name;\n`,
  "app/models/things.server.ts": `import { db } from "~/infra/db";\nimport { LIMIT } from "~/lib/constants";\nexport interface Thing { name: string }\nexport const listThings = () => db.take(LIMIT);\n`,
  "app/infra/db.ts": `import { LIMIT } from "~/lib/constants";\nexport const db = { take: (n: number) => [LIMIT, n] };\n`,
  "app/lib/constants.ts": `export const LIMIT = 20;\n`,
};

afterEach(() => {
  for (const dir of trees.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// Each case starts dependency-cruiser (a Node process that loads TypeScript): 1–3 s alone, 5.6–6.8 s measured while a
// Playwright run shared the two cores, over vitest's 5 s default. 30 s stays well above that worst case.
describe("the floors check", { timeout: 30_000 }, () => {
  it("passes a tree whose imports all point down", () => {
    const { status, output } = check(tree(house));
    expect(output).toContain("no dependency violations found");
    expect(status).toBe(0);
  });

  it("fails a model that imports the host", () => {
    const { status, output } = check(tree({ ...house, "app/models/things.server.ts": `import { app } from "../../server/app";\n${house["app/models/things.server.ts"]}export const host = app;\n` }));
    expect(status).not.toBe(0);
    expect(output).toMatch(/models-not-up: app\/models\/things\.server\.ts → server\/app\.ts/);
  });

  it("fails a type-only import that climbs a floor (lib → models)", () => {
    const { status, output } = check(tree({ ...house, "app/lib/labels.ts": `import type { Thing } from "~/models/things.server";\nexport const label = (thing: Thing) => thing.name;\n` }));
    expect(status).not.toBe(0);
    expect(output).toMatch(/lib-not-up: app\/lib\/labels\.ts → app\/models\/things\.server\.ts/);
  });

  it("fails a component that imports a route", () => {
    const { status, output } = check(tree({ ...house, "app/components/card.tsx": `import type { loader } from "~/routes/_index";\nexport type Data = ReturnType<typeof loader>;\n${house["app/components/card.tsx"]}` }));
    expect(status).not.toBe(0);
    expect(output).toMatch(/components-not-up: app\/components\/card\.tsx → app\/routes\/_index\.tsx/);
  });

  it("fails a circle on one floor, even of types", () => {
    const { status, output } = check(
      tree({
        ...house,
        "app/components/a.tsx": `import type { B } from "./b";\nexport type A = { b?: B };\n`,
        "app/components/b.tsx": `import type { A } from "./a";\nexport type B = { a?: A };\n`,
      }),
    );
    expect(status).not.toBe(0);
    expect(output).toMatch(/no-circular: app\/components\/a\.tsx →\s+app\/components\/b\.tsx →\s+app\/components\/a\.tsx/);
  });

  it("fails a module in a folder of app/ that is on no floor", () => {
    const { status, output } = check(tree({ ...house, "app/utils/helper.ts": `import { LIMIT } from "~/lib/constants";\nexport const helper = LIMIT;\n` }));
    expect(status).not.toBe(0);
    expect(output).toContain("app-knows-its-floors: app/utils/helper.ts");
  });

  it("tells a tool that did not run from a report of violations", () => {
    const refusal = "ERROR: Your node version (20.20.2) is not supported. dependency-cruiser\n       follows the node.js release cycle";
    expect(verdictOf(1, refusal)).toEqual({ failure: expect.stringMatching(/^dependency-cruiser did not check the tree \(exit 1\).*\nERROR: Your node version/s) });
    expect(verdictOf(1, "  ERROR: Can't open 'server' for reading. Does it exist?")).toHaveProperty("failure");
    expect(verdictOf(0, "")).toHaveProperty("failure");
    expect(verdictOf(1, "x 2 dependency violations (2 errors, 0 warnings). 5 modules, 4 dependencies cruised.")).toEqual({ violations: 2 });
    expect(verdictOf(0, "✔ no dependency violations found (6 modules, 7 dependencies cruised)")).toEqual({ violations: 0 });
  });

  it("fails with the tool's own words when it cannot run on a tree", () => {
    const dir = tree(house);
    fs.rmSync(path.join(dir, "server"), { recursive: true });
    expect(() => check(dir)).toThrow(/dependency-cruiser did not check the tree \(exit \d+\).*Can't open 'server'/s);
  });
});
