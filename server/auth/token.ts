import type { z } from "zod";
import { verifyPassword } from "../../app/infra/auth/passwords";
import { messages } from "../../app/lib/messages";
import { findPasswordUser } from "../../app/models/auth/users.server";
import { recordRateLimitEvent } from "../../app/models/rate-limit.server";
import type { Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { json } from "./helpers";
import { signInBuckets, signInLimit } from "./limits";
import { credentialsParams } from "./params";
import { DUMMY_HASH } from "./password";
import { pkceGrant, pkceParams } from "./pkce";
import { grant, runRoute } from "./router";
import { startSession } from "./session";
import { refreshParams, refreshTokenGrant } from "./token-refresh";

/**
 * POST /token, as GoTrue's token.go: a session for a password (here), a refresh token (token-refresh.ts) or an OAuth
 * flow's auth code (pkce.ts), by `grant_type`.
 */

/** `signInWithPassword` (grant_type=password): after the sign-in limit, the account's password checked. */
const passwordGrant: Handler<z.output<typeof credentialsParams>> = async (api, { issuer, clientIp, device }, { email, password }) => {
  const user = await findPasswordUser(api.db, email);
  // Hash even for an unknown account, so timing does not tell which emails exist.
  const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !valid) {
    await recordRateLimitEvent({ db: api.db, buckets: signInBuckets(email, clientIp) });
    throw new AuthError(400, ErrorCode.InvalidCredentials, messages.auth.invalidCredentials);
  }
  // Only the owner of the password learns that the address waits for confirmation.
  if (!user.email_confirmed_at) throw new AuthError(400, ErrorCode.EmailNotConfirmed, messages.auth.emailNotConfirmed);
  return json(await startSession(api, { userId: user.id, issuer, device }));
};

/** The grants by `grant_type`, each with its body's schema and its limit, as the route table has them for paths. */
const grants = new Map([
  ["password", grant({ params: credentialsParams, limit: signInLimit, handler: passwordGrant })],
  ["refresh_token", grant({ params: refreshParams, handler: refreshTokenGrant })],
  ["pkce", grant({ params: pkceParams, handler: pkceGrant })],
]);

export const token: Handler = async (api, req) => {
  const chosen = grants.get(req.url.searchParams.get("grant_type") ?? "");
  if (!chosen) throw new AuthError(400, ErrorCode.ValidationFailed, "unsupported grant_type");
  return runRoute(chosen, api, req);
};
