import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import {
  EMAIL_MAX,
  PASSWORD_INPUT_MAX,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  REFRESH_TOKEN_REUSE_INTERVAL_MS,
  SIGN_IN_ACCOUNT_DELAY,
  SIGN_IN_RATE_LIMIT,
  USER_METADATA_MAX_BYTES,
} from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { isStorableJson, isStorableText } from "../../app/lib/schemas";
import { countRateLimitEvents, recordRateLimitEvent } from "../../app/models/rate-limit.server";
import type { Database } from "../db/schema";
import { createTokenVerifier, signAccessToken } from "./jwt";
import { hashPassword, verifyPassword } from "./passwords";

/**
 * The part of the Supabase Auth (GoTrue) HTTP API that supabase-js uses, served by the app itself
 * when no hosted Supabase is configured (PRODUCT §3): signup, password and refresh-token grants,
 * the current user, logout. Requests and responses have GoTrue's shapes, errors included, so
 * supabase-js and @supabase/ssr work against it unchanged.
 */
export type LocalAuthHandler = (request: Request, info: { clientIp: string }) => Promise<Response>;

interface AuthUserRow {
  id: string;
  email: string;
  user_metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  last_sign_in_at: Date | null;
}

class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const newRefreshToken = () => randomBytes(32).toString("base64url");

/** A user object as GoTrue returns it. */
function toGoTrueUser(user: AuthUserRow) {
  const created = user.created_at.toISOString();
  return {
    id: user.id,
    aud: "authenticated",
    role: "authenticated",
    email: user.email,
    email_confirmed_at: created,
    phone: "",
    confirmed_at: created,
    last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: user.user_metadata,
    identities: [],
    created_at: created,
    updated_at: user.updated_at.toISOString(),
    is_anonymous: false,
  };
}

export function createLocalAuthHandler({ db, jwtSecret }: { db: Database; jwtSecret: string }): LocalAuthHandler {
  const verify = createTokenVerifier({ secret: jwtSecret });

  async function issueSession(user: AuthUserRow, sessionId: string, issuer: string, parentId: number | null, executor: Database) {
    const refreshToken = newRefreshToken();
    await executor
      .insertInto("auth_refresh_tokens")
      .values({ token_hash: sha256(refreshToken), session_id: sessionId, parent_id: parentId })
      .execute();
    const { token, expiresAt } = await signAccessToken({
      secret: jwtSecret,
      issuer,
      userId: user.id,
      email: user.email,
      sessionId,
      userMetadata: user.user_metadata,
    });
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: expiresAt - Math.floor(Date.now() / 1000),
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: toGoTrueUser(user),
    };
  }

  async function startSession(user: AuthUserRow, issuer: string) {
    return db.transaction().execute(async (trx) => {
      const signedIn = await trx
        .updateTable("auth_users")
        .set({ last_sign_in_at: sql<Date>`now()` })
        .where("id", "=", user.id)
        .returning(["id", "email", "user_metadata", "created_at", "updated_at", "last_sign_in_at"])
        .executeTakeFirstOrThrow();
      const session = await trx.insertInto("auth_sessions").values({ user_id: user.id }).returning("id").executeTakeFirstOrThrow();
      return issueSession(signedIn, session.id, issuer, null, trx);
    });
  }

  async function readCredentials(request: Request) {
    const body = await readBody(request);
    const email = typeof body.email === "string" ? body.email.normalize("NFC").trim().toLowerCase() : "";
    const password = typeof body.password === "string" ? body.password : "";
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > EMAIL_MAX || !isStorableText(email)) {
      throw new AuthError(400, "validation_failed", messages.validation.email);
    }
    if (password.length > PASSWORD_INPUT_MAX) throw new AuthError(400, "validation_failed", messages.validation.maxLength(PASSWORD_INPUT_MAX));
    const data = body.data && typeof body.data === "object" && !Array.isArray(body.data) ? body.data : {};
    if (JSON.stringify(data).length > USER_METADATA_MAX_BYTES || !isStorableJson(data)) {
      throw new AuthError(400, "validation_failed", messages.validation.checkInput);
    }
    return { email, password, data };
  }

  async function signup(request: Request, issuer: string) {
    const { email, password, data } = await readCredentials(request);
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
      throw new AuthError(422, "validation_failed", messages.auth.passwordTooShort(PASSWORD_MIN_LENGTH));
    }
    const passwordHash = await hashPassword(password);
    const user = await db
      .insertInto("auth_users")
      .values({ email, password_hash: passwordHash, user_metadata: JSON.stringify(data) })
      .onConflict((oc) => oc.column("email").doNothing())
      .returning(["id", "email", "user_metadata", "created_at", "updated_at", "last_sign_in_at"])
      .executeTakeFirst();
    if (!user) throw new AuthError(422, "user_already_exists", messages.auth.userExists);
    return json(await startSession(user, issuer));
  }

  async function passwordGrant(request: Request, issuer: string, clientIp: string) {
    const { email, password } = await readCredentials(request);
    // Failed attempts are what a password guesser makes, so those are what count (PRODUCT §9). An address that
    // failed too often is stopped; the account itself only slows down, so nobody can lock its owner out.
    const buckets = [`sign-in:ip:${clientIp}`, `sign-in:account-ip:${email} ${clientIp}`, `sign-in:account:${email}`];
    const [byAddress, byAccountAndAddress, byAccount] = await countRateLimitEvents({ db, buckets, windowMs: SIGN_IN_RATE_LIMIT.windowMs });
    if (byAddress! >= SIGN_IN_RATE_LIMIT.limit || byAccountAndAddress! >= SIGN_IN_RATE_LIMIT.limit) {
      throw new AuthError(429, "over_request_rate_limit", messages.auth.rateLimited);
    }
    await delay(signInDelayMs(byAccount!));
    const user = await db
      .selectFrom("auth_users")
      .select(["id", "email", "user_metadata", "password_hash", "created_at", "updated_at", "last_sign_in_at"])
      .where("email", "=", email)
      .executeTakeFirst();
    // Hash even for an unknown account, so timing does not tell which emails exist.
    const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !valid) {
      await recordRateLimitEvent({ db, buckets });
      throw new AuthError(400, "invalid_credentials", messages.auth.invalidCredentials);
    }
    return json(await startSession(user, issuer));
  }

  async function refreshGrant(request: Request, issuer: string) {
    const body = await readBody(request);
    const presented = typeof body.refresh_token === "string" ? body.refresh_token : "";
    const result = await db.transaction().execute(async (trx) => {
      const token = await trx
        .selectFrom("auth_refresh_tokens as t")
        .innerJoin("auth_sessions as s", "s.id", "t.session_id")
        .innerJoin("auth_users as u", "u.id", "s.user_id")
        .select(["t.id", "t.used_at", "t.session_id", "s.revoked_at", "u.id as user_id", "u.email", "u.user_metadata", "u.created_at", "u.updated_at", "u.last_sign_in_at"])
        .where("t.token_hash", "=", sha256(presented))
        .forUpdate("t")
        .executeTakeFirst();
      if (!token || token.revoked_at) return { error: "invalid" as const };
      const user = { id: token.user_id, email: token.email, user_metadata: token.user_metadata, created_at: token.created_at, updated_at: token.updated_at, last_sign_in_at: token.last_sign_in_at };
      if (token.used_at) {
        // A spent token again. Within a few seconds it is two tabs racing; else a stolen token: end the session.
        const child = await trx
          .selectFrom("auth_refresh_tokens")
          .select(["id", "used_at"])
          .where("parent_id", "=", token.id)
          .executeTakeFirst();
        const racing = child && !child.used_at && Date.now() - token.used_at.getTime() < REFRESH_TOKEN_REUSE_INTERVAL_MS;
        if (!racing) {
          await trx
            .updateTable("auth_sessions")
            .set({ revoked_at: sql<Date>`now()`, revoked_reason: "refresh_token_reused" })
            .where("id", "=", token.session_id)
            .execute();
          return { error: "reused" as const };
        }
        await trx.updateTable("auth_refresh_tokens").set({ used_at: sql<Date>`now()` }).where("id", "=", child.id).execute();
        return { session: await issueSession(user, token.session_id, issuer, child.id, trx) };
      }
      await trx.updateTable("auth_refresh_tokens").set({ used_at: sql<Date>`now()` }).where("id", "=", token.id).execute();
      await trx.updateTable("auth_sessions").set({ refreshed_at: sql<Date>`now()` }).where("id", "=", token.session_id).execute();
      return { session: await issueSession(user, token.session_id, issuer, token.id, trx) };
    });
    if ("error" in result) {
      const code = result.error === "reused" ? "refresh_token_already_used" : "refresh_token_not_found";
      throw new AuthError(400, code, messages.auth.sessionExpired);
    }
    return json(result.session);
  }

  /** The caller's live session from its bearer token, or a 401/403 in GoTrue's words. */
  async function authenticate(request: Request) {
    const token = /^Bearer (.+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
    const claims = token ? await verify(token) : null;
    if (!claims) throw new AuthError(401, "bad_jwt", messages.auth.invalidSession);
    const row = await db
      .selectFrom("auth_sessions as s")
      .innerJoin("auth_users as u", "u.id", "s.user_id")
      .select(["s.revoked_at", "u.id", "u.email", "u.user_metadata", "u.created_at", "u.updated_at", "u.last_sign_in_at"])
      .where("s.id", "=", claims.session_id)
      .where("u.id", "=", claims.sub)
      .executeTakeFirst();
    if (!row || row.revoked_at) throw new AuthError(403, "session_not_found", messages.auth.invalidSession);
    return { claims, user: row };
  }

  async function logout(request: Request) {
    const { claims } = await authenticate(request);
    const scope = new URL(request.url).searchParams.get("scope") ?? "global";
    let query = db.updateTable("auth_sessions").set({ revoked_at: sql<Date>`now()`, revoked_reason: "logout" }).where("revoked_at", "is", null);
    if (scope === "local") query = query.where("id", "=", claims.session_id);
    else if (scope === "others") query = query.where("user_id", "=", claims.sub).where("id", "<>", claims.session_id);
    else query = query.where("user_id", "=", claims.sub);
    await query.execute();
    return new Response(null, { status: 204 });
  }

  return async (request, { clientIp }) => {
    const url = new URL(request.url);
    const issuer = `${url.origin}/auth/v1`;
    const route = `${request.method} ${url.pathname.replace(/^\/auth\/v1/, "")}`;
    try {
      switch (route) {
        case "POST /signup":
          return await signup(request, issuer);
        case "POST /token": {
          const grant = url.searchParams.get("grant_type");
          if (grant === "password") return await passwordGrant(request, issuer, clientIp);
          if (grant === "refresh_token") return await refreshGrant(request, issuer);
          throw new AuthError(400, "validation_failed", "unsupported grant_type");
        }
        case "GET /user":
          return json(toGoTrueUser((await authenticate(request)).user));
        case "POST /logout":
          return await logout(request);
        default:
          throw new AuthError(404, "not_found", messages.api.notFound);
      }
    } catch (error) {
      if (error instanceof AuthError) {
        return json({ code: error.status, error_code: error.errorCode, msg: error.message }, error.status);
      }
      throw error;
    }
  };
}

/** How long an attempt on an account waits after it failed `failures` times in the window (from anywhere). */
export function signInDelayMs(failures: number) {
  const { afterFailures, baseMs, maxMs } = SIGN_IN_ACCOUNT_DELAY;
  if (failures < afterFailures) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(failures - afterFailures, 16));
}

/** A JSON object body; anything else (not JSON, `null`, an array, a string) reads as an empty one. */
async function readBody(request: Request): Promise<Record<string, unknown>> {
  const body: unknown = await request.json().catch(() => null);
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

const delay = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

// A valid hash of a random password, verified against when the account does not exist.
const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"));
