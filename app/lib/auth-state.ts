/**
 * The browser's auth state (docs/product.md#states): loading, then signed in, signed out, or signed in with
 * needsProfileSetup (the me call answered 404). Pure functions, so every transition is testable.
 */
export type AuthStatus = "loading" | "signedOut" | "signedIn" | "needsProfileSetup" | "invalid";

/** The auth events of docs/product.md#states (supabase-js's names). */
export type AuthEvent =
  | "INITIAL_SESSION"
  | "SIGNED_IN"
  | "SIGNED_OUT"
  | "TOKEN_REFRESHED"
  | "USER_UPDATED"
  | "PASSWORD_RECOVERY"
  | "MFA_CHALLENGE_VERIFIED";

export interface SessionLike {
  access_token: string;
  expires_at?: number;
  user: { id: string; email?: string };
}

export interface Claims {
  sub: string;
  email?: string;
  role?: string;
  session_id?: string;
  exp?: number;
  /** The session's assurance level: aal2 once an authenticator app's code was verified in it. */
  aal?: string;
}

export interface AuthState {
  status: AuthStatus;
  session: SessionLike | null;
  claims: Claims | null;
}

export type ProfileCheck = "found" | "missing" | "unauthorized" | "failed";

export const initialAuthState: AuthState = { status: "loading", session: null, claims: null };

/** The JWT's payload, read (not verified: the server verifies every request). */
export function decodeClaims(accessToken: string): Claims | null {
  try {
    const payload = accessToken.split(".")[1];
    if (!payload) return null;
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const claims = JSON.parse(decodeURIComponent(escape(json))) as Claims;
    return typeof claims.sub === "string" ? claims : null;
  } catch {
    return null;
  }
}

/**
 * What an auth event does: any event with a session stores it and its claims (the profile
 * check then settles the status); SIGNED_OUT, or no session, clears them.
 */
export function applyAuthEvent(state: AuthState, event: AuthEvent, session: SessionLike | null): AuthState {
  if (event === "SIGNED_OUT" || !session) return { status: "signedOut", session: null, claims: null };
  const claims = decodeClaims(session.access_token);
  if (!claims) return { status: "invalid", session: null, claims: null };
  // The same user refreshing a token keeps the settled status; anything else waits for the profile check.
  const sameUser = state.claims?.sub === claims.sub && (state.status === "signedIn" || state.status === "needsProfileSetup");
  return { status: sameUser ? state.status : "loading", session, claims };
}

/** Settles the status from the me call: found, 404 (set up the profile), 401/403 (the session is no good). */
export function applyProfileCheck(state: AuthState, check: ProfileCheck): AuthState {
  if (!state.session) return state;
  switch (check) {
    case "found":
      return { ...state, status: "signedIn" };
    case "missing":
      return { ...state, status: "needsProfileSetup" };
    case "unauthorized":
      return { status: "invalid", session: null, claims: null };
    case "failed":
      // Failures loading auth are swallowed (docs/product.md#errors): keep the session, assume the ordinary case.
      return state.status === "loading" ? { ...state, status: "signedIn" } : state;
  }
}

/** What the server found in the session cookies while answering the root loader: the browser's source of truth. */
export interface ServerSession {
  userId: string;
  /** The session's current access token (the server refreshes it from the cookies): the socket authenticates with it. */
  accessToken: string;
  hasProfile: boolean;
}

/** The event a new answer of the server's is: a first read, a sign-in or -out, a refreshed token or another user. */
export function serverSessionEvent(state: AuthState, next: ServerSession | null): AuthEvent {
  if (state.status === "loading" && !state.session) return "INITIAL_SESSION";
  if (!next) return "SIGNED_OUT";
  if (!state.session) return "SIGNED_IN";
  if (state.claims?.sub !== next.userId) return "SIGNED_IN";
  if (state.session.access_token === next.accessToken) return "USER_UPDATED";
  // The same session raised to aal2 (an authenticator app confirmed on /settings/security): supabase-js's event for it.
  return state.claims?.aal !== "aal2" && decodeClaims(next.accessToken)?.aal === "aal2" ? "MFA_CHALLENGE_VERIFIED" : "TOKEN_REFRESHED";
}

/**
 * supabase-js's getAuthenticatorAssuranceLevel for a session the server holds: the level its token proves, and the one
 * the account can reach (aal2 once it has a verified factor). A sign-in whose two differ owes its second step.
 */
export function assuranceOf(session: { access_token: string; user: { factors?: readonly { status: string }[] | null } }) {
  const currentLevel = decodeClaims(session.access_token)?.aal === "aal2" ? "aal2" : "aal1";
  const nextLevel = session.user.factors?.some((factor) => factor.status === "verified") ? "aal2" : "aal1";
  return { currentLevel, nextLevel } as const;
}

/** The state after the server's answer: its event applied, then its profile check (no me call needed). */
export function applyServerSession(state: AuthState, next: ServerSession | null): AuthState {
  const event = serverSessionEvent(state, next);
  const applied = applyAuthEvent(state, event, next && { access_token: next.accessToken, user: { id: next.userId } });
  return next ? applyProfileCheck(applied, next.hasProfile ? "found" : "missing") : applied;
}
