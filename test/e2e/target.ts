// Where the flows run: the suite's own server, which playwright.config.ts starts, or any deployment named by
// E2E_BASE_URL, where Playwright starts nothing. A flow that needs what only the suite's own server is sure to have
// carries the tag @local and says what it needs; against a deployment it is skipped with that reason, never dropped.
import { test as base } from "@playwright/test";

/** The deployment the flows run against, or undefined for the suite's own server. */
export const REMOTE_BASE_URL = process.env.E2E_BASE_URL || undefined;

/** What a deployment may not have, in the words the skip reason uses. */
export const NEEDS = {
  testPayments: "the built-in test payment provider (テスト決済) to buy coins",
  demoData: "the seeded demo data (its games, communities, events or listings)",
  database: "direct access to the database and the operators' command beside the server",
  mail: "the e2e SMTP server to read the mails sent",
  clock: "a clock the test can move",
  embeddedAuth: "the embedded auth server, whose sessions the app can list (hosted Supabase keeps its own)",
} as const;

/**
 * The details of a flow (or a describe) that needs the suite's own server: `test("…", local(NEEDS.testPayments), …)`.
 * The tag selects them (`--grep @local`, `--grep-invert @local`); the annotation is the reason printed when skipped.
 */
export function local(...needs: string[]) {
  return { tag: "@local", annotation: needs.map((description) => ({ type: "@local", description })) };
}

/** The reason a @local flow is skipped against REMOTE_BASE_URL, from what its annotations say it needs. */
export function remoteSkipReason(annotations: ReadonlyArray<{ type: string; description?: string }>, target = REMOTE_BASE_URL) {
  const needs = [...new Set(annotations.filter((annotation) => annotation.type === "@local" && annotation.description).map((annotation) => annotation.description))];
  return `@local: needs ${needs.length > 0 ? needs.join(" and ") : "the suite's own server"}, which the deployment at ${target} may not have; it runs against the suite's own server (without E2E_BASE_URL)`;
}

/**
 * Playwright's `test` with the @local rule, which every spec's `test` extends (./fixtures, ./scenes): an automatic
 * fixture, so the skip happens before any other fixture (a worker's scene bought with テスト決済, say) is set up.
 */
export const test = base.extend<{ localOnly: void }>({
  localOnly: [
    async ({}, use, testInfo) => {
      if (REMOTE_BASE_URL && testInfo.tags.includes("@local")) testInfo.skip(true, remoteSkipReason(testInfo.annotations));
      await use();
    },
    { auto: true, title: "skip @local flows against E2E_BASE_URL" },
  ],
});
