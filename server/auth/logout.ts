import { revokeSessionsInScope } from "../../app/models/auth/sessions.server";
import { signedIn } from "./auth";
import type { Handler } from "./context";

/**
 * `signOut({ scope })` (POST /logout), as GoTrue's logout.go: `local` ends the caller's session, `others` the user's
 * other sessions, `global` (the default) all of them (ADR 013). Sockets of the sessions ended elsewhere close.
 */
export const logout: Handler = async (api, req) => {
  const { claims } = signedIn(req);
  const scope = req.url.searchParams.get("scope") ?? "global";
  await revokeSessionsInScope(api.db, { scope, sessionId: claims.session_id, userId: claims.sub });
  if (scope !== "local") await api.onSessionsEnded(claims.sub, scope === "others" ? { keepSessionId: claims.session_id } : {});
  return new Response(null, { status: 204 });
};
