import path from "node:path";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Prints, after the run, every skipped flow under the reason it was skipped for: the list reporter shows a
 * skipped test's title only, and a flow left out against a deployment (@local, test/e2e/target.ts) must say why.
 */
export default class SkipReasonsReporter implements Reporter {
  private readonly byReason = new Map<string, string[]>();

  printsToStdio() {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status !== "skipped") return;
    const reasons = [...result.annotations, ...test.annotations]
      .filter((annotation) => annotation.type === "skip" || annotation.type === "fixme")
      .map((annotation) => annotation.description || `test.${annotation.type}() without a reason`);
    const reason = [...new Set(reasons)].join("; ") || "no reason given";
    const where = `${path.relative(process.cwd(), test.location.file)}:${test.location.line}`;
    const titles = this.byReason.get(reason) ?? [];
    titles.push(`${where} › ${test.titlePath().slice(3).join(" › ")}`);
    this.byReason.set(reason, titles);
  }

  onEnd() {
    if (this.byReason.size === 0) return;
    const count = [...this.byReason.values()].reduce((sum, titles) => sum + titles.length, 0);
    const lines = [`\n  ${count} skipped, and why:`];
    for (const [reason, titles] of this.byReason) {
      lines.push(`  ${reason}`);
      for (const title of titles) lines.push(`    - ${title}`);
    }
    console.log(lines.join("\n"));
  }
}
