import { describe, expect, it } from "vitest";
import { formBrowser, PASSWORD, uniqueEmail } from "../support/auth";
import { hostedSupabaseServers } from "../support/hosted";
import { totpCode } from "../support/totp";

/**
 * 二段階認証 with hosted Supabase (ADR 064): one app server configured with SUPABASE_URL pointing at another, whose
 * embedded auth answers as GoTrue does, so the app takes its hosted path: no auth endpoints of its own, tokens verified
 * by the project's secret, factors known only from what the auth server answers (users.second_step_required). The
 * same pages, the same supabase-js calls, over the network.
 */

const servers = hostedSupabaseServers();

const browser = () => formBrowser(servers.app);

describe("二段階認証 against a hosted auth server", () => {
  it("enrols, then a sign-in owes the code until it is given; the level comes from the verified token", async () => {
    expect(servers.app.config.SUPABASE_URL).toBe(servers.auth.url);
    const email = uniqueEmail("hosted");
    const first = browser();
    expect((await first.post("/signup", { email, password: PASSWORD })).status).toBe(302);
    expect((await first.post("/mypage/gamer-edit", { displayName: "ホステッド" })).status).toBe(302);
    const enrolled = await (await first.post("/settings/security", { intent: "enroll", friendlyName: "Pixel" })).text();
    const secret = /data-secret="([A-Z2-7]+)"/.exec(enrolled)![1]!;
    const factorId = /name="factorId" value="([0-9a-f-]{36})"/.exec(enrolled)![1]!;
    // The factor lives on the auth server, not in the app's database.
    expect(await servers.auth.database.db.selectFrom("auth_mfa_factors").select("id").where("id", "=", factorId).execute()).toHaveLength(1);
    const confirmed = await first.post("/settings/security", { intent: "confirm", factorId, secret, friendlyName: "Pixel", code: totpCode(secret) });
    expect([...(await confirmed.text()).matchAll(/<li>([a-z2-7]{5}-[a-z2-7]{5})<\/li>/g)]).toHaveLength(10);
    const user = await servers.app.database.db.selectFrom("users").select(["id", "second_step_required"]).where("email", "=", email).executeTakeFirstOrThrow();
    expect(user.second_step_required).toBe(true);

    const second = browser();
    const signedIn = await second.post("/login", { email, password: PASSWORD, redirectTo: "/mypage" });
    expect(signedIn.headers.get("location")).toBe("/login/mfa?redirectTo=%2Fmypage");
    expect((await second.page("/mypage")).headers.get("location")).toBe("/login/mfa?redirectTo=%2Fmypage");
    expect((await second.page("/api/coins/balance")).status).toBe(403);
    const verified = await second.post("/login/mfa", { intent: "code", code: totpCode(secret, 1), redirectTo: "/mypage" });
    expect(verified.headers.get("location")).toBe("/mypage");
    expect((await second.page("/mypage")).status).toBe(200);
    expect((await second.page("/api/coins/balance")).status).toBe(200);
  });
});
