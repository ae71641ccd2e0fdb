import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { productionStart } from "../../server/start-command.mjs";

describe("how production runs the build (npm start, ADR 041 and 047)", () => {
  it("reads npm start's variables and Node flags from package.json: the memory budget", () => {
    const { env, flags } = productionStart();
    expect(env).toEqual({ NODE_ENV: "production", MALLOC_ARENA_MAX: "2" });
    expect(flags).toEqual(["--max-semi-space-size=16", "--max-old-space-size=256"]);
  });

  it("refuses a start script it cannot read, instead of starting replicas without the flags", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-start-"));
    try {
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts: { start: "tsx server/index.ts" } }));
      expect(() => productionStart(dir)).toThrow(/npm start/);
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts: { start: "A=1 node --x=2 build/index.js" } }));
      expect(productionStart(dir)).toEqual({ env: { A: "1" }, flags: ["--x=2"] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
