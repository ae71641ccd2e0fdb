import { z } from "zod";
import { REFRESH_TOKEN_REUSE_INTERVAL_MS } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { findChildToken, lockRefreshToken, markRefreshTokenUsed } from "../../app/models/auth/refresh-tokens.server";
import { markSessionRefreshed, revokeSession } from "../../app/models/auth/sessions.server";
import type { Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { json, sha256 } from "./helpers";
import { textParam } from "./params";
import { issueSession, refuseStopped } from "./session";

export const refreshParams = z.object({ refresh_token: textParam });

/**
 * `refreshSession` (POST /token?grant_type=refresh_token), as GoTrue's token_refresh.go: the presented token is spent
 * and its child issued, in one transaction with the token locked. A spent token again within a few seconds is two
 * tabs racing and gets the child issued then; later it is a stolen token, and the session ends.
 */
export const refreshTokenGrant: Handler<z.output<typeof refreshParams>> = async (api, { issuer }, { refresh_token: presented }) => {
  const result = await api.db.transaction().execute(async (trx) => {
    const token = await lockRefreshToken(trx, sha256(presented));
    if (!token || token.revoked_at) return { error: "invalid" as const };
    // Issued before the session's level changed (a factor verified): GoTrue refuses it as spent, the session kept.
    if (token.superseded_at) return { error: "superseded" as const };
    await refuseStopped(api, trx, token.user_id);
    const user = {
      id: token.user_id,
      email: token.email,
      user_metadata: token.user_metadata,
      app_metadata: token.app_metadata,
      created_at: token.created_at,
      updated_at: token.updated_at,
      last_sign_in_at: token.last_sign_in_at,
      email_confirmed_at: token.email_confirmed_at,
      has_password: token.has_password,
    };
    if (token.used_at) {
      // A spent token again. Within a few seconds it is two tabs racing; else a stolen token: end the session.
      const child = await findChildToken(trx, token.id);
      const racing = child && !child.used_at && Date.now() - token.used_at.getTime() < REFRESH_TOKEN_REUSE_INTERVAL_MS;
      if (!racing) {
        await revokeSession(trx, { sessionId: token.session_id, reason: "refresh_token_reused" });
        return { error: "reused" as const };
      }
      await markRefreshTokenUsed(trx, child.id);
      return { session: await issueSession(api, { user, sessionId: token.session_id, issuer, parentId: child.id, executor: trx }) };
    }
    await markRefreshTokenUsed(trx, token.id);
    await markSessionRefreshed(trx, token.session_id);
    return { session: await issueSession(api, { user, sessionId: token.session_id, issuer, parentId: token.id, executor: trx }) };
  });
  if ("error" in result) {
    const code = result.error === "reused" || result.error === "superseded" ? ErrorCode.RefreshTokenAlreadyUsed : ErrorCode.RefreshTokenNotFound;
    throw new AuthError(400, code, messages.auth.sessionExpired);
  }
  return json(result.session);
};
