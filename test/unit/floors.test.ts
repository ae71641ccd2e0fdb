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
const depcruise = path.join(repo, "node_modules/.bin/depcruise");
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

function check(dir: string) {
  const result = spawnSync(depcruise, ["--config", path.join(repo, ".dependency-cruiser.cjs"), "--output-type", "err", "app", "server"], {
    cwd: dir,
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
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
});
