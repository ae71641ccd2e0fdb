import { createTokenVerifier } from "../../app/infra/auth/jwt";
import { createSecretBox } from "../../app/infra/auth/secret-box";
import type { LocalAuthHandler } from "../../app/infra/auth/session";
import type { Database } from "../../app/infra/db/tables";
import type { DiscordClient } from "../../app/infra/discord";
import { messages } from "../../app/lib/messages";
import { cleanClientIp, cleanUserAgent } from "../../app/lib/user-agent";
import type { AuthApi } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { externalProviderCallback, externalProviderRedirect } from "./external";
import { json } from "./helpers";
import { deleteIdentity, linkIdentity } from "./identity";
import { recoverLimit } from "./limits";
import { logout } from "./logout";
import { challengeFactor, enrollFactor, enrollParams, unenrollFactor } from "./mfa";
import { verifyFactor, verifyFactorParams } from "./mfa-verify";
import { credentialsParams } from "./params";
import { recover, recoverParams } from "./recover";
import { matchRoute, route, runRoute } from "./router";
import { settings } from "./settings";
import { signup } from "./signup";
import { token } from "./token";
import { userGet, userUpdate, userUpdateParams } from "./user";
import { verify, verifyParams } from "./verify";

/**
 * The part of the Supabase Auth (GoTrue) HTTP API that supabase-js uses, served by the app itself
 * when no hosted Supabase is configured (docs/product.md#accounts): signup, password and refresh-token grants,
 * the current user and its update (password, address, metadata), password recovery, one-time links, logout, and
 * signing in with Discord by GoTrue's OAuth flow with PKCE, its identities, linking and unlinking (ADR 039), and TOTP
 * factors for two-step verification (ADR 063).
 * Requests and responses have GoTrue's shapes, errors included, so supabase-js and @supabase/ssr
 * work against it unchanged. Mails go through the outbox in the same transaction (ADR 027).
 *
 * Laid out as supabase/auth is (ADR 062): this file is its api.go, the route table with each route's middleware;
 * a handler file per group of endpoints beside it, named after GoTrue's; the SQL in app/models/auth/.
 */

/**
 * Every endpoint of /auth/v1, in GoTrue's order. `session`: the caller must have a live session
 * (`requireAuthentication`, auth.ts); `params`: the body's schema; `limit`: the rate limit, after the body (its
 * buckets may name the address). POST /token's grants have their own table (token.ts), with the sign-in limit on
 * the password grant; PUT /user checks the limits of a new address and of a wrong current password itself, as
 * each applies to one field of the update.
 */
export const routes = [
  route({ method: "GET", path: "/settings", handler: settings }),
  route({ method: "GET", path: "/authorize", handler: externalProviderRedirect }),
  route({ method: "GET", path: "/callback", handler: externalProviderCallback }),
  route({ method: "POST", path: "/signup", params: credentialsParams, handler: signup }),
  route({ method: "POST", path: "/recover", params: recoverParams, limit: recoverLimit, handler: recover }),
  route({ method: "POST", path: "/token", handler: token }),
  route({ method: "POST", path: "/verify", params: verifyParams, handler: verify }),
  route({ method: "POST", path: "/logout", session: true, handler: logout }),
  route({ method: "GET", path: "/user", session: true, handler: userGet }),
  route({ method: "PUT", path: "/user", session: true, params: userUpdateParams, handler: userUpdate }),
  route({ method: "GET", path: "/user/identities/authorize", session: true, handler: linkIdentity }),
  route({ method: "DELETE", path: "/user/identities/{identity_id}", session: true, handler: deleteIdentity }),
  // TOTP factors (mfa.go, ADR 063). Challenge and verify check their limits in the handler, once the factor is
  // known to be the caller's (GoTrue's loadFactor runs before its limiters).
  route({ method: "POST", path: "/factors", session: true, params: enrollParams, handler: enrollFactor }),
  route({ method: "POST", path: "/factors/{factor_id}/challenge", session: true, handler: challengeFactor }),
  route({ method: "POST", path: "/factors/{factor_id}/verify", session: true, params: verifyFactorParams, handler: verifyFactor }),
  route({ method: "DELETE", path: "/factors/{factor_id}", session: true, handler: unenrollFactor }),
];

export function createLocalAuthHandler({
  db,
  jwtSecret,
  factorSecretKey,
  confirmEmail = false,
  clock = () => new Date(),
  onSessionsEnded = async () => {},
  discord,
  siteUrl,
  redirectUrls = [],
}: {
  db: Database;
  jwtSecret: string;
  /** MFA_SECRET_KEY: the key TOTP secrets are sealed with at rest. */
  factorSecretKey: string;
  /** Discordでログイン, when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set. */
  discord?: DiscordClient;
  /** SITE_URL: where OAuth sign-ins come back to (Discord's redirect URI is SITE_URL/auth/v1/callback). */
  siteUrl: () => string;
  /** AUTH_REDIRECT_URLS: besides SITE_URL, where an OAuth sign-in may send the browser back. */
  redirectUrls?: string[];
  /** Sign-up waits for the address to be confirmed by mail (AUTH_CONFIRM_EMAIL). */
  confirmEmail?: boolean;
  clock?: () => Date;
  /** Told after a user's sessions were revoked (all, or all but one): their sockets close (app/infra/realtime.ts). */
  onSessionsEnded?: (userId: string, options: { keepSessionId?: string }) => Promise<void>;
}): LocalAuthHandler {
  const api: AuthApi = { db, jwtSecret, verify: createTokenVerifier({ secret: jwtSecret }), secrets: createSecretBox(factorSecretKey), confirmEmail, clock, onSessionsEnded, discord, siteUrl, redirectUrls };
  return async (request, { clientIp, userAgent }) => {
    const url = new URL(request.url);
    const found = matchRoute(routes, request.method, url.pathname.replace(/^\/auth\/v1/, ""));
    const device = { userAgent: cleanUserAgent(userAgent), ip: clientIp === "unknown" ? null : cleanClientIp(clientIp) };
    try {
      if (!found) throw new AuthError(404, ErrorCode.NotFound, messages.api.notFound);
      return await runRoute(found.route, api, { request, url, issuer: `${url.origin}/auth/v1`, clientIp, device, pathParams: found.pathParams });
    } catch (error) {
      // A refusal in GoTrue's shape: `{ code, error_code, msg }`, the status as `code`.
      if (error instanceof AuthError) return json({ code: error.status, error_code: error.errorCode, msg: error.message }, error.status);
      throw error;
    }
  };
}
