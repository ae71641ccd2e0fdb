import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import type { AppConfig } from "../config";
import type { Database } from "../db/schema";
import { createTokenVerifier, signAnonKey, type AccessTokenClaims } from "./jwt";
import { createLocalAuthHandler, type LocalAuthHandler } from "./local-auth";

/** The signed-in caller of one request, from a verified access token. */
export interface AuthUser {
  id: string;
  email: string;
  claims: AccessTokenClaims;
  accessToken: string;
  /**
   * The session to check again before each chat message, where the app can (it is its own auth server, so it knows
   * a revoked session); null with hosted Supabase, where a token stands until it expires.
   */
  sessionId: string | null;
}

/** What a loader or action sees of auth: the caller, and a supabase-js client bound to its cookies. */
export interface RequestAuth {
  /** Verifies the bearer token or the cookie session (refreshing an expired one); null when signed out. */
  getUser(): Promise<AuthUser | null>;
  /** supabase-js for this request: it reads the session cookies and writes new ones on the response. */
  supabase(): SupabaseClient;
  /** Where supabase-js in the browser talks to, and the key it sends. */
  publicConfig: { supabaseUrl: string; anonKey: string; discord: boolean };
}

export interface RequestInfo {
  origin: string;
  cookieHeader: string | undefined;
  authorization: string | undefined;
  clientIp: string;
  appendSetCookie(value: string): void;
}

export interface AuthService {
  /** Set when the app is its own auth server (no SUPABASE_URL). */
  localAuth: LocalAuthHandler | undefined;
  /** The user of an access token, verified (sockets authenticate with it). */
  authenticate(accessToken: string): Promise<AuthUser | null>;
  forRequest(info: RequestInfo): RequestAuth;
}

export async function createAuthService({ config, db }: { config: AppConfig; db: Database }): Promise<AuthService> {
  const local = !config.SUPABASE_URL;
  const localAuth = local ? createLocalAuthHandler({ db, jwtSecret: config.SUPABASE_JWT_SECRET! }) : undefined;
  const anonKey = config.SUPABASE_ANON_KEY ?? (await signAnonKey(config.SUPABASE_JWT_SECRET!));
  const verifyToken = createTokenVerifier({
    secret: config.SUPABASE_JWT_SECRET,
    jwksUrl: config.SUPABASE_URL ? `${config.SUPABASE_URL}/auth/v1/.well-known/jwks.json` : undefined,
  });

  // Locally, a session that logged out or was revoked stops working at once, not when its token expires.
  const sessionAlive = async (claims: AccessTokenClaims) => {
    if (!local) return true;
    const session = await db
      .selectFrom("auth_sessions")
      .select("revoked_at")
      .where("id", "=", claims.session_id)
      .where("user_id", "=", claims.sub)
      .executeTakeFirst();
    return !!session && !session.revoked_at;
  };

  const authenticate = async (accessToken: string): Promise<AuthUser | null> => {
    const claims = await verifyToken(accessToken);
    if (!claims || !(await sessionAlive(claims))) return null;
    return { id: claims.sub, email: claims.email, claims, accessToken, sessionId: local ? claims.session_id : null };
  };

  return {
    localAuth,
    authenticate,
    forRequest(info) {
      const supabaseUrl = config.SUPABASE_URL ?? info.origin;
      // In local mode supabase-js on the server reaches the auth endpoints in-process, not over the network.
      const fetchAuth: typeof fetch = localAuth
        ? async (input, init) => {
            const request = new Request(input, init);
            return new URL(request.url).pathname.startsWith("/auth/v1/")
              ? localAuth(request, { clientIp: info.clientIp })
              : fetch(request);
          }
        : fetch;

      let client: SupabaseClient | undefined;
      const supabase = () =>
        (client ??= createServerClient(supabaseUrl, anonKey, {
          global: { fetch: fetchAuth },
          // supabase-js builds a realtime client even though we never use it; Node 20 has no global WebSocket.
          realtime: { transport: WebSocket as never },
          auth: { flowType: "pkce" },
          cookies: {
            getAll: () => parseCookieHeader(info.cookieHeader ?? "").map(({ name, value }) => ({ name, value: value ?? "" })),
            setAll: (cookies) => {
              for (const { name, value, options } of cookies) info.appendSetCookie(serializeCookieHeader(name, value, options));
            },
          },
        }));

      let user: Promise<AuthUser | null> | undefined;
      const getUser = () =>
        (user ??= (async () => {
          const bearer = /^Bearer (.+)$/i.exec(info.authorization ?? "")?.[1];
          if (bearer) return authenticate(bearer);
          if (!info.cookieHeader?.includes("-auth-token")) return null;
          const { data } = await supabase().auth.getSession();
          return data.session ? authenticate(data.session.access_token) : null;
        })().catch((error) => {
          console.error("[auth] could not read the session:", error);
          return null;
        }));

      return { getUser, supabase, publicConfig: { supabaseUrl, anonKey, discord: !local } };
    },
  };
}
