import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { countLines } from "../file-lengths.mjs";

/** The file-length half of `npm run lint:deps` (test/file-lengths.mjs, ADR 055) run on small trees. */
const script = path.resolve(__dirname, "../file-lengths.mjs");
const trees: string[] = [];

function tree(files: Record<string, number>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-lengths-"));
  trees.push(dir);
  for (const [file, lines] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), Array.from({ length: lines }, (_, i) => `export const line${i} = ${i};\n`).join(""));
  }
  return dir;
}

/** The list of exceptions is empty since the auth server's split (ADR 062); these trees bring their own. */
const exceptions = { "server/auth/local-auth.ts": "a file the tests allow over the limit" };

function check(dir: string) {
  const env = { ...process.env, FILE_LENGTH_EXCEPTIONS: JSON.stringify(exceptions) };
  const result = spawnSync(process.execPath, [script, dir], { encoding: "utf8", env });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

afterEach(() => {
  for (const dir of trees.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the file-length check", () => {
  it("passes files of 400 lines, and the one listed exception however long", () => {
    const { status, output } = check(tree({ "app/models/things.server.ts": 400, "server/app.ts": 120, "server/auth/local-auth.ts": 974 }));
    expect(output).toContain("no file over 400 lines");
    expect(status).toBe(0);
  });

  it("fails a file of 401 lines in app/, naming it", () => {
    const { status, output } = check(tree({ "app/models/things.server.ts": 401, "server/app.ts": 120 }));
    expect(status).toBe(1);
    expect(output).toContain("app/models/things.server.ts: 401 lines, over 400");
  });

  it("fails one in server/ too, whatever its kind", () => {
    const { status, output } = check(tree({ "server/build.mjs": 450, "app/styles/app.css": 10 }));
    expect(status).toBe(1);
    expect(output).toContain("server/build.mjs: 450 lines");
  });

  it("says when the exception is no longer needed, without failing", () => {
    const { status, output } = check(tree({ "server/auth/local-auth.ts": 300 }));
    expect(status).toBe(0);
    expect(output).toContain("server/auth/local-auth.ts is within 400 lines now");
  });

  it("counts lines as wc -l does, and a last line without its newline", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("a\nb\n")).toBe(2);
    expect(countLines("a\nb")).toBe(2);
  });
});
