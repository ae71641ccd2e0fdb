import type { AccessTokenClaims, TokenVerifier } from "../../app/infra/auth/jwt";
import type { SecretBox } from "../../app/infra/auth/secret-box";
import type { Database } from "../../app/infra/db/tables";
import type { DiscordClient } from "../../app/infra/discord";
import type { SessionDevice, SessionWithUser } from "../../app/models/auth/sessions.server";

/**
 * What the embedded auth server's handlers are given (ADR 062): the server's settings and services, made once by
 * `createLocalAuthHandler` (GoTrue's `API`), and the request as the route table has prepared it.
 */
export interface AuthApi {
  db: Database;
  jwtSecret: string;
  verify: TokenVerifier;
  /** Seals and opens TOTP secrets at rest (MFA_SECRET_KEY, ADR 064). */
  secrets: SecretBox;
  /** Sign-up waits for the address to be confirmed by mail (AUTH_CONFIRM_EMAIL). */
  confirmEmail: boolean;
  clock: () => Date;
  /** Told after a user's sessions were revoked (all, or all but one): their sockets close (app/infra/realtime.ts). */
  onSessionsEnded: (userId: string, options: { keepSessionId?: string }) => Promise<void>;
  /** Discordでログイン, when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set. */
  discord: DiscordClient | undefined;
  /** SITE_URL: where OAuth sign-ins come back to (Discord's redirect URI is SITE_URL/auth/v1/callback). */
  siteUrl: () => string;
  /** AUTH_REDIRECT_URLS: besides SITE_URL, where an OAuth sign-in may send the browser back. */
  redirectUrls: string[];
}

/** The caller of a route that needs a session: its access token's claims and its live session's account. */
export interface Session {
  claims: AccessTokenClaims;
  user: SessionWithUser;
}

export interface AuthRequest {
  request: Request;
  url: URL;
  /** The server as a token's issuer: `{origin}/auth/v1`. */
  issuer: string;
  clientIp: string;
  /** The caller's browser and address as a session begun now records them (GoTrue's user_agent and ip). */
  device: SessionDevice;
  /** The values of the route's path parameters (`{identity_id}`), as they stand in the path. */
  pathParams: Record<string, string>;
  /** The caller, once `requireAuthentication` has let the request through (the routes with `session: true`). */
  session?: Session;
}

/** An endpoint: what it answers, given the request and its body parsed by the route's `params`. */
export type Handler<Params = undefined> = (api: AuthApi, req: AuthRequest, params: Params) => Promise<Response>;

/** A rate limit of a route, checked after its body was parsed (its buckets may name the address) and before its handler. */
export type Limit<Params> = (api: AuthApi, req: AuthRequest, params: Params) => Promise<void>;
