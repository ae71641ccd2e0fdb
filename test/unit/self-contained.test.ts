import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/** The self-contained half of `npm run lint:deps` (test/self-contained.mjs) run on small trees. */
const script = path.resolve(__dirname, "../self-contained.mjs");
const trees: string[] = [];

function tree(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-self-contained-"));
  trees.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function check(dir: string) {
  const result = spawnSync(process.execPath, [script, dir], { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

afterEach(() => {
  for (const dir of trees.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// The references are assembled here so that this file passes the check it tests.
const spec = ["SPEC", "§7"].join(" ");
const tracker = ["issue", "49"].join(" ");
const shared = ["..", "shared", "PRODUCT.md"].join("/");

describe("the self-contained check", () => {
  it("passes docs/ anchors, ADRs and upstream issues by URL", () => {
    const dir = tree({
      "app/models/chat.server.ts": "// The caption's limit (docs/product.md#chat, ADR 069).\n",
      "docs/operations.md": "See https://github.com/vitest-dev/vitest/issues/1234 and [ADR 067](decisions/067.md).\n",
    });
    const { status, output } = check(dir);
    expect(output).toContain("nothing points outside the repository (2 files checked)");
    expect(status).toBe(0);
  });

  it("names each line that cites the design documents, their folder or the tracker, and fails", () => {
    const dir = tree({
      "app/lib/validation/chat.ts": `// IMAGE as ${spec} sends it\nexport const ok = 1;\n`,
      "migrations/0033_chat_images.ts": `/** Pictures in chat (${tracker}). */\n`,
      "docs/qa.md": `As ${shared} says.\n`,
      "node_modules/some-lib/index.js": `// ${tracker} upstream, not ours\n`,
    });
    const { status, output } = check(dir);
    expect(status).toBe(1);
    expect(output).toContain("app/lib/validation/chat.ts:1: a section of the team's design documents");
    expect(output).toContain("migrations/0033_chat_images.ts:1: the tracker's issue number");
    expect(output).toContain("docs/qa.md:1: the team's folder outside the repository");
    expect(output).not.toContain("node_modules");
    expect(output).toContain("3 line(s) point outside the repository");
  });
});
