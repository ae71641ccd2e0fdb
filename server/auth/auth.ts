import { messages } from "../../app/lib/messages";
import { findSessionWithUser } from "../../app/models/auth/sessions.server";
import type { AuthApi, AuthRequest, Session } from "./context";
import { AuthError, ErrorCode } from "./errors";

/**
 * The routes that need a session (`session: true` in the route table) go through here first, as GoTrue's go
 * through `requireAuthentication` (auth.go): the bearer token verified, then its session live and its account
 * still here; else a 401 or 403 in GoTrue's words.
 */
export async function requireAuthentication(api: AuthApi, req: AuthRequest): Promise<Session> {
  const token = /^Bearer (.+)$/i.exec(req.request.headers.get("Authorization") ?? "")?.[1];
  const claims = token ? await api.verify(token) : null;
  if (!claims) throw new AuthError(401, ErrorCode.BadJWT, messages.auth.invalidSession);
  const user = await findSessionWithUser(api.db, { sessionId: claims.session_id, userId: claims.sub });
  if (!user || user.revoked_at || user.deleted_at) throw new AuthError(403, ErrorCode.SessionNotFound, messages.auth.invalidSession);
  return { claims, user };
}

/** The caller of a route with `session: true`; a route without it that asks is a mistake in the route table. */
export function signedIn(req: AuthRequest): Session {
  if (!req.session) throw new Error(`auth: ${req.request.method} ${req.url.pathname} asks for the caller but its route has no session: true`);
  return req.session;
}
