import { randomBytes } from "node:crypto";
import { signAccessToken } from "../../app/infra/auth/jwt";
import type { Database } from "../../app/infra/db/tables";
import { messages } from "../../app/lib/messages";
import { formatDateTime } from "../../app/lib/time";
import { insertRefreshToken } from "../../app/models/auth/refresh-tokens.server";
import { insertSession, readSessionAssurance, type SessionDevice } from "../../app/models/auth/sessions.server";
import { markSignedIn, readModerationState, type AuthUserRow } from "../../app/models/auth/users.server";
import type { AuthApi } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { sha256 } from "./helpers";
import { goTrueUser } from "./user-json";

/**
 * How every way of signing in ends (sign-up, a grant, a mailed link, the OAuth code): a session, and GoTrue's answer
 * for it (an access token, a refresh token and the user), as GoTrue's token.go issues them.
 */

/**
 * An access token and a new refresh token for the session (its first, or the child of `parentId`), in `executor`.
 * The token says the session's level as the database has it (GoTrue's CalculateAALAndAMR): at aal2, `amr` names the
 * factor's `totp` first, then the sign-in.
 */
export async function issueSession(api: AuthApi, { user, sessionId, issuer, parentId, executor }: { user: AuthUserRow; sessionId: string; issuer: string; parentId: number | null; executor: Database }) {
  const refreshToken = randomBytes(32).toString("base64url");
  await insertRefreshToken(executor, { tokenHash: sha256(refreshToken), sessionId, parentId });
  const assurance = await readSessionAssurance(executor, sessionId);
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  const amr =
    assurance.aal === "aal2" && assurance.mfa_verified_at
      ? [
          { method: "totp", timestamp: seconds(assurance.mfa_verified_at) },
          { method: "password", timestamp: seconds(assurance.created_at) },
        ]
      : undefined;
  const { token, expiresAt } = await signAccessToken({
    aal: assurance.aal,
    amr,
    secret: api.jwtSecret,
    issuer,
    userId: user.id,
    email: user.email,
    sessionId,
    userMetadata: user.user_metadata,
    appMetadata: user.app_metadata,
  });
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: expiresAt - Math.floor(Date.now() / 1000),
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await goTrueUser(executor, user),
  };
}

/**
 * A suspended or banned account gets no session, however it asks (password, refresh, a mailed link): GoTrue's
 * `user_banned`, with the suspension's end in Tokyo time and where to ask (ADR 030).
 */
export async function refuseStopped(api: AuthApi, executor: Database, userId: string) {
  const user = await readModerationState(executor, userId);
  if (user?.banned_at) throw new AuthError(400, ErrorCode.UserBanned, messages.moderation.banned);
  if (user?.suspended_until && user.suspended_until.getTime() > api.clock().getTime()) {
    throw new AuthError(400, ErrorCode.UserBanned, messages.moderation.suspendedUntil(formatDateTime(user.suspended_until)));
  }
}

/**
 * A new session for the user, begun by `method` ("password", "recovery" …) on the caller's `device`, in `executor`'s
 * transaction or its own.
 */
export async function startSession(
  api: AuthApi,
  { userId, issuer, device, method = "password", executor }: { userId: string; issuer: string; device: SessionDevice; method?: string; executor?: Database },
) {
  const run = async (trx: Database) => {
    await refuseStopped(api, trx, userId);
    const signedIn = await markSignedIn(trx, userId);
    const session = await insertSession(trx, { userId, method, device });
    return issueSession(api, { user: signedIn, sessionId: session.id, issuer, parentId: null, executor: trx });
  };
  return executor ? run(executor) : api.db.transaction().execute(run);
}
