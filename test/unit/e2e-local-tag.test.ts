import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteSkipReason } from "../e2e/target";

/**
 * with E2E_BASE_URL, a flow tagged @local is reported as skipped with its reason, and Playwright starts no
 * server of its own. Runs the real config on two real specs' @local flows against a stand-in deployment that only
 * counts requests (a skipped flow sends none), with Playwright's JSON report in a file and the skip reporter on stdout.
 */
describe("@local flows against E2E_BASE_URL", () => {
  let target: http.Server;
  let baseUrl: string;
  let requests = 0;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "gm-local-tag-"));

  beforeAll(async () => {
    target = http.createServer((_, response) => {
      requests++;
      response.end("ok");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => target.close(resolve));
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("are skipped, each with what it needs, in the JSON report and on the terminal", { timeout: 120_000 }, async () => {
    const jsonFile = path.join(scratch, "report.json");
    // Ports nothing listens on: were a server started after all, its health check would never pass and the run would fail.
    const env = { ...process.env, E2E_BASE_URL: baseUrl, PLAYWRIGHT_JSON_OUTPUT_FILE: jsonFile, E2E_PORT: "1", E2E_MAIL_HTTP_PORT: "2", E2E_HTML_REPORT: path.join(scratch, "html") };
    const args = ["playwright", "test", "test/e2e/subscriptions.spec.ts", "test/e2e/pages.spec.ts", "--grep", "@local", "--reporter=json,./test/support/skip-reporter.ts", `--output=${path.join(scratch, "results")}`];
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn("npx", args, { env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.stderr.on("data", (chunk) => (out += chunk));
      child.on("close", (exitCode) => resolve({ code: exitCode, stdout: out }));
    });
    expect(code, stdout).toBe(0);

    const report = JSON.parse(fs.readFileSync(jsonFile, "utf8"));
    type Spec = { title: string; tags: string[]; tests: Array<{ status: string; annotations: Array<{ type: string; description?: string }> }> };
    type Suite = { specs?: Spec[]; suites?: Suite[] };
    const specs: Spec[] = [];
    const collect = (suite: Suite) => {
      specs.push(...(suite.specs ?? []));
      (suite.suites ?? []).forEach(collect);
    };
    (report.suites as Suite[]).forEach(collect);

    const byTitle = Object.fromEntries(specs.map((spec) => [spec.title, spec]));
    const subscribe = byTitle["a fan sees a locked post, subscribes from the profile after a confirmation, and the post opens"];
    const home = byTitle["home introduces the product, leads to every section and lists the popular games with their pages"];
    expect(subscribe?.tags).toContain("local");
    const skipOf = (spec: Spec | undefined) => spec?.tests[0]?.annotations.find((annotation) => annotation.type === "skip")?.description;
    expect(subscribe?.tests[0]?.status).toBe("skipped");
    expect(skipOf(subscribe)).toBe(remoteSkipReason([{ type: "@local", description: "the built-in test payment provider (テスト決済) to buy coins" }], baseUrl));
    expect(home?.tests[0]?.status).toBe("skipped");
    expect(skipOf(home)).toMatch(/^@local: needs the seeded demo data .*, which the deployment at http:\/\/127\.0\.0\.1:\d+ may not have/);
    expect(report.stats).toMatchObject({ expected: 0, unexpected: 0, skipped: specs.length });

    // Printed, not only recorded: the reason, then the flow.
    expect(stdout).toContain(`${specs.length} skipped, and why:`);
    expect(stdout).toContain(`${skipOf(subscribe)}\n    - test/e2e/subscriptions.spec.ts:5 › a fan sees a locked post`);
    // Nothing reached the deployment, and no server of the suite's was started (its health check would have failed).
    expect(requests).toBe(0);
  });
});
