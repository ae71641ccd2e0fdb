import { describe, expect, it } from "vitest";
import { applyAuthEvent, applyProfileCheck, applyServerSession, assuranceOf, decodeClaims, initialAuthState, serverSessionEvent, type AuthEvent, type AuthState } from "~/lib/auth-state";

const token = (claims: Record<string, unknown>) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;
const session = (sub = "user-1", email = "a@example.jp") => ({ access_token: token({ sub, email, role: "authenticated" }), user: { id: sub } });

describe("decodeClaims", () => {
  it("reads the payload, Japanese included", () => {
    expect(decodeClaims(token({ sub: "u", email: "a@b.jp", user_metadata: { name: "太郎" } }))).toMatchObject({ sub: "u", email: "a@b.jp" });
  });
  it("answers null for what is not a JWT", () => {
    expect(decodeClaims("garbage")).toBeNull();
    expect(decodeClaims("a.b.c")).toBeNull();
    expect(decodeClaims(token({ email: "no-sub" }))).toBeNull();
  });
});

describe("auth events (docs/product.md#states)", () => {
  const events: AuthEvent[] = ["INITIAL_SESSION", "SIGNED_IN", "TOKEN_REFRESHED", "USER_UPDATED", "PASSWORD_RECOVERY", "MFA_CHALLENGE_VERIFIED"];

  it.each(events)("%s with a session stores the session and its claims, then waits for the profile check", (event) => {
    const next = applyAuthEvent(initialAuthState, event, session());
    expect(next.status).toBe("loading");
    expect(next.session?.user.id).toBe("user-1");
    expect(next.claims).toMatchObject({ sub: "user-1", email: "a@example.jp" });
  });

  it("INITIAL_SESSION without a session is signed out", () => {
    expect(applyAuthEvent(initialAuthState, "INITIAL_SESSION", null)).toEqual({ status: "signedOut", session: null, claims: null });
  });

  it("SIGNED_OUT clears the session and the claims", () => {
    const signedIn = applyProfileCheck(applyAuthEvent(initialAuthState, "SIGNED_IN", session()), "found");
    expect(applyAuthEvent(signedIn, "SIGNED_OUT", null)).toEqual({ status: "signedOut", session: null, claims: null });
  });

  it("a token refresh for the same user keeps the settled status", () => {
    const signedIn = applyProfileCheck(applyAuthEvent(initialAuthState, "SIGNED_IN", session()), "found");
    expect(applyAuthEvent(signedIn, "TOKEN_REFRESHED", session()).status).toBe("signedIn");
    const otherUser = applyAuthEvent(signedIn, "SIGNED_IN", session("user-2"));
    expect(otherUser.status).toBe("loading");
    expect(otherUser.claims?.sub).toBe("user-2");
  });

  it("a session whose token cannot be read is invalid", () => {
    expect(applyAuthEvent(initialAuthState, "SIGNED_IN", { access_token: "x", user: { id: "u" } }).status).toBe("invalid");
  });
});

describe("the profile check", () => {
  const loading: AuthState = applyAuthEvent(initialAuthState, "SIGNED_IN", session());

  it("found → signed in; 404 → needsProfileSetup; 401/403 → invalid", () => {
    expect(applyProfileCheck(loading, "found").status).toBe("signedIn");
    expect(applyProfileCheck(loading, "missing").status).toBe("needsProfileSetup");
    expect(applyProfileCheck(loading, "unauthorized")).toEqual({ status: "invalid", session: null, claims: null });
  });

  it("swallows a failure (docs/product.md#errors): the session stays", () => {
    const failed = applyProfileCheck(loading, "failed");
    expect(failed.status).toBe("signedIn");
    expect(failed.session).not.toBeNull();
    const setUp = applyProfileCheck(loading, "missing");
    expect(applyProfileCheck(setUp, "failed").status).toBe("needsProfileSetup");
  });

  it("does nothing once signed out", () => {
    const signedOut = applyAuthEvent(loading, "SIGNED_OUT", null);
    expect(applyProfileCheck(signedOut, "found")).toBe(signedOut);
  });
});

describe("the session as the server read it (the browser has no auth client)", () => {
  const server = (userId = "user-1", hasProfile = true, email = "a@example.jp") => ({ userId, hasProfile, accessToken: token({ sub: userId, email }) });

  it("starts as the server found it: signed in, setting up a profile, or signed out", () => {
    expect(applyServerSession(initialAuthState, server()).status).toBe("signedIn");
    expect(applyServerSession(initialAuthState, server("user-1", false)).status).toBe("needsProfileSetup");
    expect(applyServerSession(initialAuthState, null)).toEqual({ status: "signedOut", session: null, claims: null });
    expect(serverSessionEvent(initialAuthState, server())).toBe("INITIAL_SESSION");
  });

  it("names each later answer by its auth event, and stores the claims", () => {
    const signedIn = applyServerSession(initialAuthState, server());
    expect(signedIn.claims).toMatchObject({ sub: "user-1", email: "a@example.jp" });
    expect(serverSessionEvent(signedIn, null)).toBe("SIGNED_OUT");
    expect(serverSessionEvent(signedIn, server("user-2"))).toBe("SIGNED_IN");
    expect(serverSessionEvent(signedIn, { ...server(), accessToken: token({ sub: "user-1", exp: 2 }) })).toBe("TOKEN_REFRESHED");
    expect(serverSessionEvent(signedIn, server())).toBe("USER_UPDATED");
    const signedOut = applyServerSession(signedIn, null);
    expect(signedOut).toEqual({ status: "signedOut", session: null, claims: null });
    expect(serverSessionEvent(signedOut, server())).toBe("SIGNED_IN");
  });

  it("settles a saved profile when the root loader runs again", () => {
    const settingUp = applyServerSession(initialAuthState, server("user-1", false));
    expect(applyServerSession(settingUp, server("user-1", true)).status).toBe("signedIn");
  });
});

describe("MFA_CHALLENGE_VERIFIED", () => {
  const token = (claims: Record<string, unknown>) => `h.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.s`;
  it("is the event of the same session raised from aal1 to aal2, and keeps the settled status", () => {
    const aal1 = applyServerSession(initialAuthState, { userId: "u1", accessToken: token({ sub: "u1", aal: "aal1" }), hasProfile: true });
    expect(aal1.status).toBe("signedIn");
    const next = { userId: "u1", accessToken: token({ sub: "u1", aal: "aal2" }), hasProfile: true };
    expect(serverSessionEvent(aal1, next)).toBe("MFA_CHALLENGE_VERIFIED");
    const aal2 = applyServerSession(aal1, next);
    expect(aal2.status).toBe("signedIn");
    expect(aal2.claims?.aal).toBe("aal2");
    // A refresh at aal2 is a refresh.
    expect(serverSessionEvent(aal2, { ...next, accessToken: token({ sub: "u1", aal: "aal2", iat: 2 }) })).toBe("TOKEN_REFRESHED");
  });

  it("assuranceOf reads the token's level and the account's reachable one from its verified factors", () => {
    expect(assuranceOf({ access_token: token({ sub: "u", aal: "aal1" }), user: { factors: [{ status: "verified" }] } })).toEqual({ currentLevel: "aal1", nextLevel: "aal2" });
    expect(assuranceOf({ access_token: token({ sub: "u", aal: "aal2" }), user: { factors: [{ status: "verified" }] } })).toEqual({ currentLevel: "aal2", nextLevel: "aal2" });
    expect(assuranceOf({ access_token: token({ sub: "u" }), user: { factors: [{ status: "unverified" }] } })).toEqual({ currentLevel: "aal1", nextLevel: "aal1" });
    expect(assuranceOf({ access_token: token({ sub: "u" }), user: {} })).toEqual({ currentLevel: "aal1", nextLevel: "aal1" });
  });
});
