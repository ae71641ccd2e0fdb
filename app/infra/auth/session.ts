import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import { sql } from "kysely";
import WebSocket from "ws";
import type { AppConfig } from "~/infra/config";
import type { Database } from "~/infra/db/tables";
import { databaseUnavailable, isConnectionError } from "~/infra/db/errors";
import { log } from "~/infra/logger.server";
import { createTokenVerifier, signAnonKey, type AccessTokenClaims } from "./jwt";

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
  /** The session's authenticator assurance level, read from the verified token (both modes). */
  aal: "aal1" | "aal2";
  /**
   * An aal1 session of an account with a confirmed authenticator app: it is signed in only once the app's code is
   * entered (/login/mfa). Until then `getUser()` and sockets treat it as signed out (ADR 064).
   */
  secondStepPending: boolean;
}

/** What a loader or action sees of auth: the caller, and a supabase-js client bound to its cookies. */
export interface RequestAuth {
  /**
   * Verifies the bearer token or the cookie session (refreshing an expired one): the signed-in caller; null when
   * signed out, or when the session still owes its second step (`getSignIn` sees that one).
   */
  getUser(): Promise<AuthUser | null>;
  /** The session as it stands, second step owed or not: for the code page, sign-out and the API's 403. */
  getSignIn(): Promise<AuthUser | null>;
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
  /** The browser's User-Agent: a session begun through supabase-js on the server is the browser's, not Node's. */
  userAgent: string | undefined;
  appendSetCookie(value: string): void;
}

/**
 * The embedded auth server's endpoints (/auth/v1/*, server/auth/api.ts) as one fetch handler. The host makes
 * it and hands it in, so that this module, which models and routes stand on, does not stand on the auth server.
 */
export type LocalAuthHandler = (request: Request, info: LocalAuthCaller) => Promise<Response>;

/** Who is asking the embedded auth server, as the host saw the request: a session begun records both (「ログイン中の端末」). */
export interface LocalAuthCaller {
  clientIp: string;
  userAgent: string | undefined;
}

export interface AuthService {
  /** The signed-in user of an access token, verified; null while its second step is owed (sockets authenticate with it). */
  authenticate(accessToken: string): Promise<AuthUser | null>;
  /**
   * Of users authenticated earlier (the sockets of a process), those signed in no longer: their session revoked or
   * gone, or their account stopped or left. One query for them all.
   */
  endedAmong(users: readonly AuthUser[]): Promise<AuthUser[]>;
  forRequest(info: RequestInfo): RequestAuth;
}

export async function createAuthService({
  config,
  db,
  localAuth,
}: {
  config: AppConfig;
  db: Database;
  /** The embedded auth server; given exactly when there is no SUPABASE_URL. */
  localAuth: LocalAuthHandler | undefined;
}): Promise<AuthService> {
  const local = !config.SUPABASE_URL;
  if (local !== !!localAuth) throw new Error("auth: the embedded auth server is needed exactly when SUPABASE_URL is unset");
  const anonKey = config.SUPABASE_ANON_KEY ?? (await signAnonKey(config.SUPABASE_JWT_SECRET!));
  const verifyToken = createTokenVerifier({
    secret: config.SUPABASE_JWT_SECRET,
    jwksUrl: config.SUPABASE_URL ? `${config.SUPABASE_URL}/auth/v1/.well-known/jwks.json` : undefined,
  });

  // Locally, a session that logged out or was revoked stops working at once, not when its token expires. Hosted
  // Supabase keeps an account that left (退会) and its sessions (the app cannot delete them): the app refuses them.
  // Either way a suspended or banned account's tokens are refused (ADR 030): a suspension revokes the local sessions,
  // and this one lookup of the user's row by its key also covers hosted Supabase, which the app cannot revoke.
  const stopped = sql<boolean>`(u.deleted_at is not null or u.banned_at is not null or coalesce(u.suspended_until > now(), false))`;
  // Whether the account owes a second step at aal1: the embedded auth knows its factors; with hosted Supabase the app
  // reads what it last learnt of them (users.second_step_required, kept by the sign-in and the security page).
  const hasVerifiedFactor = sql<boolean>`exists (select 1 from auth_mfa_factors f where f.user_id = s.user_id and f.status = 'verified')`;
  const sessionState = async (claims: AccessTokenClaims): Promise<{ alive: boolean; secondStep: boolean }> => {
    if (!local) {
      const row = await db.selectFrom("users as u").select([stopped.as("stopped"), "u.second_step_required"]).where("u.id", "=", claims.sub).executeTakeFirst();
      return { alive: !row?.stopped, secondStep: !!row?.second_step_required };
    }
    const session = await db
      .selectFrom("auth_sessions as s")
      .leftJoin("users as u", "u.id", "s.user_id")
      .select(["s.revoked_at", stopped.as("stopped"), hasVerifiedFactor.as("second_step")])
      .where("s.id", "=", claims.session_id)
      .where("s.user_id", "=", claims.sub)
      .executeTakeFirst();
    return { alive: !!session && !session.revoked_at && !session.stopped, secondStep: !!session?.second_step };
  };

  /** The session of an access token, verified and alive, second step owed or not. */
  const identify = async (accessToken: string): Promise<AuthUser | null> => {
    const claims = await verifyToken(accessToken);
    if (!claims) return null;
    const state = await sessionState(claims);
    if (!state.alive) return null;
    const aal = claims.aal === "aal2" ? "aal2" : "aal1";
    return { id: claims.sub, email: claims.email, claims, accessToken, sessionId: local ? claims.session_id : null, aal, secondStepPending: aal === "aal1" && state.secondStep };
  };

  const authenticate = async (accessToken: string): Promise<AuthUser | null> => {
    const user = await identify(accessToken);
    return user && !user.secondStepPending ? user : null;
  };

  const endedAmong = async (users: readonly AuthUser[]) => {
    if (users.length === 0) return [];
    if (!local) {
      const ids = [...new Set(users.map((user) => user.id))];
      const refused = await db.selectFrom("users as u").select("u.id").where("u.id", "in", ids).where(stopped).execute();
      const gone = new Set(refused.map((row) => row.id));
      return users.filter((user) => gone.has(user.id));
    }
    const sessionIds = [...new Set(users.flatMap((user) => (user.sessionId ? [user.sessionId] : [])))];
    const alive = sessionIds.length
      ? await db
          .selectFrom("auth_sessions as s")
          .leftJoin("users as u", "u.id", "s.user_id")
          .select(["s.id", "s.user_id"])
          .where("s.id", "in", sessionIds)
          .where("s.revoked_at", "is", null)
          .where(sql<boolean>`not ${stopped}`)
          .execute()
      : [];
    const live = new Set(alive.map((row) => `${row.id}:${row.user_id}`));
    return users.filter((user) => !live.has(`${user.sessionId}:${user.id}`));
  };

  return {
    authenticate,
    endedAmong,
    forRequest(info) {
      const supabaseUrl = config.SUPABASE_URL ?? info.origin;
      // In local mode supabase-js on the server reaches the auth endpoints in-process, not over the network. Without
      // its database the auth server answers as a hosted one would, 503, not as a network failure (a form then shows
      // the page of a 503: authFormError).
      const fetchAuth: typeof fetch = localAuth
        ? async (input, init) => {
            const request = new Request(input, init);
            if (!new URL(request.url).pathname.startsWith("/auth/v1/")) return fetch(request);
            return localAuth(request, { clientIp: info.clientIp, userAgent: info.userAgent }).catch((error: unknown) => {
              if (isConnectionError(error)) return databaseUnavailable();
              throw error;
            });
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

      let signIn: Promise<AuthUser | null> | undefined;
      const getSignIn = () =>
        (signIn ??= (async () => {
          const bearer = /^Bearer (.+)$/i.exec(info.authorization ?? "")?.[1];
          if (bearer) return identify(bearer);
          if (!info.cookieHeader?.includes("-auth-token")) return null;
          const { data } = await supabase().auth.getSession();
          return data.session ? identify(data.session.access_token) : null;
        })().catch((error) => {
          // The database out of reach is not a signed-out user: the request is answered 503, and the
          // browser keeps its session for when the database is back.
          if (isConnectionError(error)) throw databaseUnavailable();
          log.error({ err: error }, "auth: could not read the session");
          return null;
        }));
      const getUser = () => getSignIn().then((user) => (user && !user.secondStepPending ? user : null));

      // Hosted Supabase has Discord configured in its dashboard; the embedded auth when DISCORD_CLIENT_ID is set.
      return { getUser, getSignIn, supabase, publicConfig: { supabaseUrl, anonKey, discord: !local || !!config.DISCORD_CLIENT_ID } };
    },
  };
}
