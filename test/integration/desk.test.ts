import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserMember, formBrowser, PASSWORD } from "../support/auth";
import { testEngine } from "../support/database";
import { createOperator } from "../support/desk";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The operators' desk's guard (ADR 071) on whichever engine the run uses, read as a browser without JavaScript reads
 * it: each role sees exactly its pages and the rest is the 404 of an unknown path; signed out and non-operators 404;
 * an operator whose session owes its code goes to /login/mfa, one without an authenticator app to /admin/two-step.
 */

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

/** What a person sees of a page: its title and everything from the header to the end of the body's markup. */
const pageOf = (html: string) => `${/<title>[^<]*<\/title>/.exec(html)?.[0]}${html.slice(html.indexOf("<header"), html.indexOf("<script"))}`;

const DESK_PATHS = ["/admin", "/admin/reports", "/admin/users", "/admin/audit"] as const;

describe(`the desk's guard (${testEngine})`, () => {
  it("is the 404 of an unknown path for visitors signed out and members without a role, GET and POST", async () => {
    const visitor = formBrowser(app);
    const member = await createBrowserMember(app, "一般さん");
    for (const path of [...DESK_PATHS, "/admin/two-step"]) {
      for (const page of [visitor.page, member.page]) {
        const unknown = await (await page("/no-such-page")).text();
        const response = await page(path);
        expect(response.status, path).toBe(404);
        const html = await response.text();
        expect(html).toContain(`Page not found: ${path}`);
        expect(html).not.toContain("運営デスク");
        // The same page as any unknown URL, but for the path it names (the route table, which the app's manifest
        // answers for any path, is not what hides the desk: the guard is, ADR 071).
        expect(pageOf(html).replace(path, "/no-such-page")).toBe(pageOf(unknown));
      }
      expect((await visitor.post(path, { reason: "x" })).status, path).toBe(404);
    }
  });

  it("shows each role exactly its pages, and 404s the others", async () => {
    const expected = {
      moderator: ["/admin/reports", "/admin/users"],
      finance: ["/admin/users"],
      admin: ["/admin/reports", "/admin/users", "/admin/audit"],
    } as const;
    for (const role of ["moderator", "finance", "admin"] as const) {
      const operator = await createOperator(app, [role]);
      const index = await operator.page("/admin");
      expect(index.status, role).toBe(200);
      const html = await index.text();
      expect(html).toContain("運営デスク");
      expect(html).toContain('name="robots" content="noindex, nofollow"');
      for (const path of ["/admin/reports", "/admin/users", "/admin/audit"]) {
        const allowed = (expected[role] as readonly string[]).includes(path);
        expect(html.includes(`href="${path}"`), `${role} link ${path}`).toBe(allowed);
        expect((await operator.page(path)).status, `${role} ${path}`).toBe(allowed ? 200 : 404);
      }
      expect(html.includes('href="/admin/payouts"'), role).toBe(role !== "moderator");
      expect(html.includes('href="/admin/inquiries"'), role).toBe(role !== "finance");
    }
  });

  it("sends an operator whose session owes its code to /login/mfa and back; one without an app to /admin/two-step", async () => {
    const operator = await createOperator(app, ["admin"]);
    const visitor = formBrowser(app);
    const login = await visitor.post("/login", { email: operator.email, password: PASSWORD, redirectTo: "/admin/reports" });
    expect(login.headers.get("location")).toBe(`/login/mfa?${new URLSearchParams({ redirectTo: "/admin/reports" })}`);
    const owed = await visitor.page("/admin/reports?reason=spam");
    expect(owed.status).toBe(302);
    expect(owed.headers.get("location")).toBe(`/login/mfa?${new URLSearchParams({ redirectTo: "/admin/reports?reason=spam" })}`);

    const noApp = await createOperator(app, ["moderator"], { twoStep: false });
    const sent = await noApp.page("/admin/reports");
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/admin/two-step");
    const explained = await noApp.page("/admin/two-step");
    expect(explained.status).toBe(200);
    const html = await explained.text();
    expect(html).toContain("二段階認証を設定してください");
    expect(html).toContain('href="/settings/security"');
    // An operator at aal2 has nothing to do there.
    expect((await operator.page("/admin/two-step")).headers.get("location")).toBe("/admin");
  });

  it("reads the roles from the auth server, not the token: a revoked role closes the desk at once", async () => {
    const operator = await createOperator(app, ["moderator"]);
    expect((await operator.page("/admin/reports")).status).toBe(200);
    await app.database.db.updateTable("auth_users").set({ app_metadata: JSON.stringify({ provider: "email" }) }).where("id", "=", operator.id).execute();
    expect((await operator.page("/admin/reports")).status).toBe(404);
    expect((await operator.page("/admin")).status).toBe(404);
  });
});
