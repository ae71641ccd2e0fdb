import { describe, expect, it } from "vitest";
import { formBrowser, PASSWORD, uniqueEmail } from "../support/auth";
import { hostedSupabaseServers } from "../support/hosted";
import { totpCode } from "../support/totp";

/**
 * The desk's guard with hosted Supabase (ADR 071): an app server whose SUPABASE_URL is another server's embedded auth,
 * answering as GoTrue does. The roles are GoTrue's `app_metadata`, read through the session (GET /user) on every
 * request: granted there, the desk opens; taken away there, it is the 404 at once, whatever the token says.
 */

const servers = hostedSupabaseServers();

/** A member of the hosted app with an authenticator app enrolled (the session at aal2), and their GoTrue user's id. */
async function hostedMember(name: string) {
  const email = uniqueEmail("desk-hosted");
  const browser = formBrowser(servers.app);
  expect((await browser.post("/signup", { email, password: PASSWORD })).status).toBe(302);
  expect((await browser.post("/mypage/gamer-edit", { displayName: name })).status).toBe(302);
  const enrolled = await (await browser.post("/settings/security", { intent: "enroll", friendlyName: "Pixel" })).text();
  const secret = /data-secret="([A-Z2-7]+)"/.exec(enrolled)![1]!;
  const factorId = /name="factorId" value="([0-9a-f-]{36})"/.exec(enrolled)![1]!;
  expect((await browser.post("/settings/security", { intent: "confirm", factorId, secret, friendlyName: "Pixel", code: totpCode(secret) })).status).toBe(200);
  const { id } = await servers.auth.database.db.selectFrom("auth_users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return { ...browser, id };
}
const setRoles = (userId: string, roles: string[] | null) =>
  servers.auth.database.db
    .updateTable("auth_users")
    .set({ app_metadata: JSON.stringify(roles ? { provider: "email", roles } : { provider: "email" }) })
    .where("id", "=", userId)
    .execute();

describe("the desk against a hosted auth server", () => {
  it("opens to the roles GoTrue holds now, and closes the moment they are gone", async () => {
    const member = await hostedMember("ホステッド運営");
    expect((await member.page("/admin")).status).toBe(404);
    await setRoles(member.id, ["moderator"]);
    const desk = await member.page("/admin/reports");
    expect(desk.status).toBe(200);
    expect(await desk.text()).toContain("レポート");
    expect((await member.page("/admin/audit")).status).toBe(404);
    await setRoles(member.id, null);
    expect((await member.page("/admin/reports")).status).toBe(404);
  });
});
