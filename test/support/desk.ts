import type { OperatorRole } from "../../app/lib/constants";
import { embeddedRoleStore, grantRole } from "../../app/models/operators.server";
import { createBrowserMember } from "./auth";
import { TEST_OPERATOR } from "./operators";
import type { TestServer } from "./server";
import { totpCode } from "./totp";

/**
 * Operators of the desk (ADR 071) for integration tests: members with a browser session (cookies), roles granted
 * as `npm run operators` grants them, and, unless `twoStep: false`, an authenticator app enrolled through
 * /settings/security, which leaves the session at aal2.
 */

export const sameOrigin = (app: TestServer) => ({ "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, "Sec-Fetch-Site": "same-origin" });

export async function createOperator(app: TestServer, roles: readonly OperatorRole[], { twoStep = true, displayName = "運営さん" } = {}) {
  const member = await createBrowserMember(app, displayName);
  for (const role of roles) await grantRole(app.database.db, { store: embeddedRoleStore, operator: TEST_OPERATOR, email: member.email, role, reason: "テスト" });
  const post = (pathname: string, fields: Record<string, string>) => member.page(pathname, { method: "POST", headers: sameOrigin(app), body: new URLSearchParams(fields) });
  let secret: string | null = null;
  if (twoStep) {
    const html = await (await post("/settings/security", { intent: "enroll", friendlyName: "運営端末" })).text();
    secret = /data-secret="([A-Z2-7]+)"/.exec(html)![1]!;
    const factorId = /name="factorId" value="([0-9a-f-]{36})"/.exec(html)![1]!;
    const confirmed = await post("/settings/security", { intent: "confirm", factorId, secret, friendlyName: "運営端末", code: totpCode(secret) });
    if (confirmed.status !== 200) throw new Error(`two-step enrolment failed: ${confirmed.status}`);
  }
  return { ...member, post, secret };
}
export type DeskOperatorMember = Awaited<ReturnType<typeof createOperator>>;
