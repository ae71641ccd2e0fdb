import { randomBytes } from "node:crypto";
import { createClient, type Session, type SupabaseClient } from "@supabase/supabase-js";
import { Secret, TOTP, URI } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { signAnonKey } from "../../app/infra/auth/jwt";
import { PASSWORD, uniqueEmail } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

/**
 * TOTP factors (ADR 063): supabase-js's `auth.mfa` against the embedded auth server, answered as GoTrue's
 * mfa.go answers, with the replay and rate-limit rules beyond it. Each test signs in from its own client address
 * (X-Forwarded-For behind a trusted proxy), so the per-address limits of one test do not reach the next.
 */

let app: TestServer;
/** The server's clock runs this far ahead of the wall clock (a challenge's expiry). */
let clockOffsetMs = 0;
beforeAll(async () => {
  app = await startTestServer({ seed: false, env: { TRUST_PROXY: "true" }, clock: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(async () => {
  await app?.close();
});

let addressCounter = 0;
const nextAddress = () => `198.18.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

/** supabase-js, its requests coming from `address`. */
async function clientFrom(address: string) {
  return createClient(app.url, await signAnonKey(app.config.SUPABASE_JWT_SECRET!), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: { headers: { "X-Forwarded-For": address } },
  });
}

/** A new account signed up from a new address: its client (holding the session), the session and the address. */
async function member() {
  const address = nextAddress();
  const supabase = await clientFrom(address);
  const email = uniqueEmail("mfa");
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD });
  if (error || !data.session) throw error ?? new Error("no session");
  return { supabase, session: data.session, email, address };
}

/** The code of `secret` at the server's clock, `steps` periods away. */
const codeAt = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: Date.now() + clockOffsetMs + steps * 30_000 });

const claimsOf = (session: Session) => JSON.parse(Buffer.from(session.access_token.split(".")[1]!, "base64url").toString());

async function enroll(supabase: SupabaseClient, friendlyName?: string) {
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName });
  if (error || !data || data.type !== "totp") throw error ?? new Error("no factor");
  return data;
}

/** Enrols and verifies a factor: the session is aal2 after this. */
async function enrollVerified(supabase: SupabaseClient) {
  const factor = await enroll(supabase, "authenticator");
  const { data, error } = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code: codeAt(factor.totp.secret) });
  if (error || !data) throw error ?? new Error("not verified");
  return { factor, session: data as unknown as Session };
}

describe("TOTP factors with supabase-js against the embedded auth", () => {
  it("enrols a TOTP factor: an SVG QR code and an otpauth URI with a 20-byte SHA1 secret", async () => {
    const { supabase, email } = await member();
    const factor = await enroll(supabase, "スマホ");
    expect(factor.friendly_name).toBe("スマホ");
    expect(factor.totp.qr_code.startsWith("data:image/svg+xml;utf-8,<svg")).toBe(true);
    expect(factor.totp.qr_code).toContain("</svg>");
    const uri = URI.parse(factor.totp.uri);
    expect(uri).toBeInstanceOf(TOTP);
    const totp = uri as TOTP;
    expect(totp.secret.base32).toBe(factor.totp.secret);
    expect(totp.secret.bytes.length).toBe(20);
    expect([totp.algorithm, totp.digits, totp.period]).toEqual(["SHA1", 6, 30]);
    expect(totp.label).toBe(email);
    const listed = await supabase.auth.mfa.listFactors();
    expect(listed.data?.all).toEqual([expect.objectContaining({ id: factor.id, friendly_name: "スマホ", factor_type: "totp", status: "unverified" })]);
    expect(listed.data?.totp).toEqual([]);
  });

  it("verifies a code: MFA_CHALLENGE_VERIFIED, aal2 with totp in amr, a refresh that keeps aal2, the aal1 token refused", async () => {
    const { supabase, session: aal1, email } = await member();
    const other = await member();
    // A second session of the same account, still aal1: it ends when the factor is verified.
    const second = await (await clientFrom(nextAddress())).auth.signInWithPassword({ email, password: PASSWORD });
    expect(second.error).toBeNull();
    const events: string[] = [];
    supabase.auth.onAuthStateChange((event) => void events.push(event));
    const factor = await enroll(supabase, "authenticator");
    const challenge = await supabase.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ type: "totp" });
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000 + 290);
    const verified = await supabase.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: codeAt(factor.totp.secret) });
    expect(verified.error).toBeNull();
    expect(verified.data).toMatchObject({ token_type: "bearer", user: { id: aal1.user.id } });
    expect(verified.data!.refresh_token).not.toBe(aal1.refresh_token);
    expect(verified.data!.user.factors).toEqual([expect.objectContaining({ id: factor.id, status: "verified", factor_type: "totp" })]);
    expect(events).toContain("MFA_CHALLENGE_VERIFIED");

    const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
    expect(level.data!.currentAuthenticationMethods.map((entry) => (typeof entry === "string" ? entry : entry.method))).toEqual(["totp", "password"]);

    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(claimsOf(refreshed.data.session!)).toMatchObject({ aal: "aal2", amr: [expect.objectContaining({ method: "totp" }), expect.objectContaining({ method: "password" })] });

    // The aal1 refresh token cannot carry the session on, and presenting it does not end the aal2 session.
    const stale = await other.supabase.auth.refreshSession({ refresh_token: aal1.refresh_token });
    expect(stale.error?.code).toBe("refresh_token_already_used");
    expect((await supabase.auth.getUser(refreshed.data.session!.access_token)).error).toBeNull();
    // The account's other aal1 session ended.
    const ended = await app.request("/auth/v1/user", { headers: { Authorization: `Bearer ${second.data.session!.access_token}` } });
    expect(ended.status).toBe(403);
  });

  it("refuses a wrong code, an expired challenge and a replayed step with GoTrue's codes, changing nothing", async () => {
    const { supabase } = await member();
    const factor = await enroll(supabase);
    const challenge = (await supabase.auth.mfa.challenge({ factorId: factor.id })).data!;
    const right = codeAt(factor.totp.secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");
    const refused = await supabase.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: wrong });
    expect(refused.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    expect((await supabase.auth.mfa.listFactors()).data?.all[0]?.status).toBe("unverified");
    expect((await supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe("aal1");

    clockOffsetMs = 6 * 60_000;
    try {
      const expired = await supabase.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: codeAt(factor.totp.secret) });
      expect(expired.error).toMatchObject({ status: 422, code: "mfa_challenge_expired" });
    } finally {
      clockOffsetMs = 0;
    }
    // The expired challenge is gone: verifying against it again finds none.
    const gone = await supabase.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: codeAt(factor.totp.secret) });
    expect(gone.error).toMatchObject({ status: 422, code: "mfa_factor_not_found" });
    expect((await supabase.auth.mfa.listFactors()).data?.all[0]?.status).toBe("unverified");

    const code = codeAt(factor.totp.secret);
    const first = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
    expect(first.error).toBeNull();
    const again = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
    expect(again.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    // A verified challenge cannot be verified again either (GoTrue says mfa_ip_address_mismatch).
    const replayedChallenge = await supabase.auth.mfa.challenge({ factorId: factor.id });
    const next = codeAt(factor.totp.secret, 1);
    expect((await supabase.auth.mfa.verify({ factorId: factor.id, challengeId: replayedChallenge.data!.id, code: next })).error).toBeNull();
    const twice = await supabase.auth.mfa.verify({ factorId: factor.id, challengeId: replayedChallenge.data!.id, code: next });
    expect(twice.error).toMatchObject({ status: 422, code: "mfa_ip_address_mismatch" });
  });

  it("accepts a code once when two verifies of it race", async () => {
    const { session, address } = await member();
    const headers = { Authorization: `Bearer ${session.access_token}`, "Content-Type": "application/json", "X-Forwarded-For": address };
    const post = (path: string, body: unknown) => app.request(`/auth/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const factor = await (await post("/factors", { factor_type: "totp" })).json();
    const challenges = await Promise.all([1, 2].map(async () => (await post(`/factors/${factor.id}/challenge`, {})).json()));
    const code = codeAt(factor.totp.secret);
    const answers = await Promise.all(challenges.map((challenge) => post(`/factors/${factor.id}/verify`, { challenge_id: challenge.id, code })));
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect(bodies.find((body) => body.error_code)?.error_code).toBe("mfa_verification_failed");
  });

  it("answers another user's factor as a missing one", async () => {
    const owner = await member();
    const factor = await enroll(owner.supabase);
    const ownChallenge = (await owner.supabase.auth.mfa.challenge({ factorId: factor.id })).data!;
    const stranger = await member();
    const challenge = await stranger.supabase.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
    const verify = await stranger.supabase.auth.mfa.verify({ factorId: factor.id, challengeId: ownChallenge.id, code: codeAt(factor.totp.secret) });
    expect(verify.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
    const unenroll = await stranger.supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(unenroll.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
    expect((await owner.supabase.auth.mfa.listFactors()).data?.all.map((listed) => listed.id)).toEqual([factor.id]);
  });

  it("refuses an 11th factor and a name already taken", async () => {
    const { supabase } = await member();
    for (let index = 0; index < 10; index++) await enroll(supabase, `factor-${index}`);
    const conflict = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "factor-3" });
    expect(conflict.error).toMatchObject({ status: 422, code: "mfa_factor_name_conflict" });
    const eleventh = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "factor-10" });
    expect(eleventh.error).toMatchObject({ status: 422, code: "too_many_enrolled_mfa_factors" });
    expect((await supabase.auth.mfa.listFactors()).data?.all).toHaveLength(10);
  });

  it("stops guessing with 429 well before 20 tries, even for the right code then", async () => {
    const { supabase } = await member();
    const factor = await enroll(supabase);
    const challenge = (await supabase.auth.mfa.challenge({ factorId: factor.id })).data!;
    const right = codeAt(factor.totp.secret);
    let limitedAt = -1;
    for (let attempt = 1; attempt <= 20 && limitedAt < 0; attempt++) {
      const guess = String((Number(right) + 1000 * attempt) % 1_000_000).padStart(6, "0");
      const { error } = await supabase.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: guess });
      if (error?.status === 429) limitedAt = attempt;
      else expect(error?.code).toBe("mfa_verification_failed");
    }
    expect(limitedAt).toBeGreaterThan(0);
    expect(limitedAt).toBeLessThan(20);
    const limited = await supabase.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: right });
    expect(limited.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    expect((await supabase.auth.mfa.listFactors()).data?.all[0]?.status).toBe("unverified");
  });

  it("keeps an aal1 session of an account with a verified factor from changing its password or address", async () => {
    const { supabase, email } = await member();
    await enrollVerified(supabase);
    const aal1 = await clientFrom(nextAddress());
    expect((await aal1.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    expect((await aal1.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    const password = await aal1.auth.updateUser({ password: "another-horse-42" });
    expect(password.error).toMatchObject({ status: 401, code: "insufficient_aal" });
    const address = await aal1.auth.updateUser({ email: uniqueEmail("moved") });
    expect(address.error).toMatchObject({ status: 401, code: "insufficient_aal" });
    const metadata = await aal1.auth.updateUser({ data: { theme: "dark" } });
    expect(metadata.error).toBeNull();
    const enrolMore = await aal1.auth.mfa.enroll({ factorType: "totp", friendlyName: "second" });
    expect(enrolMore.error).toMatchObject({ status: 403, code: "insufficient_aal" });
    // The password is unchanged.
    expect((await (await clientFrom(nextAddress())).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });

  it("unenrols: a verified factor only from aal2, and the sessions it proved are aal1 again", async () => {
    const { supabase, email } = await member();
    const { factor } = await enrollVerified(supabase);
    const aal1 = await clientFrom(nextAddress());
    await aal1.auth.signInWithPassword({ email, password: PASSWORD });
    const refused = await aal1.auth.mfa.unenroll({ factorId: factor.id });
    expect(refused.error).toMatchObject({ status: 422, code: "insufficient_aal" });
    const removed = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    expect((await supabase.auth.mfa.listFactors()).data?.all).toEqual([]);
    const refreshed = await supabase.auth.refreshSession();
    expect(claimsOf(refreshed.data.session!)).toMatchObject({ aal: "aal1" });
    expect(refreshed.data.session!.user.factors ?? []).toEqual([]);
  });

  it("refuses a factor id that is no UUID and a factor type it does not serve, as GoTrue does", async () => {
    const { supabase, session } = await member();
    const headers = { Authorization: `Bearer ${session.access_token}`, "Content-Type": "application/json" };
    const notUuid = await app.request(`/auth/v1/factors/${randomBytes(4).toString("hex")}/challenge`, { method: "POST", headers });
    expect(notUuid.status).toBe(404);
    expect((await notUuid.json()).error_code).toBe("validation_failed");
    const phone = await supabase.auth.mfa.enroll({ factorType: "phone", phone: "+819012345678" });
    expect(phone.error).toMatchObject({ status: 400, code: "validation_failed" });
  });
});
