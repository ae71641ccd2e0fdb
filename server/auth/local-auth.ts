import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import {
  CONFIRMATION_LINK_TTL_MS,
  DISCORD_GUILDS_MAX,
  DISCORD_SCOPES,
  OAUTH_FLOW_KEEP_MS,
  OAUTH_FLOW_TTL_MS,
  EMAIL_MAX,
  PASSWORD_INPUT_MAX,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RECOVER_RATE_LIMIT,
  RECOVERY_LINK_TTL_MS,
  REFRESH_TOKEN_REUSE_INTERVAL_MS,
  SIGN_IN_ACCOUNT_DELAY,
  SIGN_IN_RATE_LIMIT,
  USER_METADATA_MAX_BYTES,
} from "../../app/lib/constants";
import { createTokenVerifier, signAccessToken } from "../../app/infra/auth/jwt";
import { hashPassword, verifyPassword } from "../../app/infra/auth/passwords";
import type { LocalAuthHandler } from "../../app/infra/auth/session";
import type { Database, OneTimeTokenType } from "../../app/infra/db/tables";
import { DiscordError, type DiscordClient, type DiscordGuild, type DiscordUser } from "../../app/infra/discord";
import { log } from "../../app/infra/logger.server";
import { messages } from "../../app/lib/messages";
import { formatDateTime } from "../../app/lib/time";
import { isStorableJson, isStorableText } from "../../app/lib/validation/fields";
import { enqueueMail } from "../../app/models/mail-outbox.server";
import { countRateLimitEvents, recordRateLimitEvent } from "../../app/models/rate-limit.server";

/**
 * The part of the Supabase Auth (GoTrue) HTTP API that supabase-js uses, served by the app itself
 * when no hosted Supabase is configured (docs/product.md#accounts): signup, password and refresh-token grants,
 * the current user and its update (password, address, metadata), password recovery, one-time links, logout, and
 * signing in with Discord by GoTrue's OAuth flow with PKCE, its identities, linking and unlinking (ADR 039).
 * Requests and responses have GoTrue's shapes, errors included, so supabase-js and @supabase/ssr
 * work against it unchanged. Mails go through the outbox in the same transaction (ADR 027).
 */

interface AuthUserRow {
  id: string;
  email: string;
  user_metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  last_sign_in_at: Date | null;
  email_confirmed_at: Date | null;
  /** The account can sign in with its address and a password (an account made by Discord has none until it sets one). */
  has_password: boolean;
}

const userColumns = [
  "id",
  "email",
  "user_metadata",
  "created_at",
  "updated_at",
  "last_sign_in_at",
  "email_confirmed_at",
  sql<boolean>`password_hash is not null`.as("has_password"),
] as const;

interface IdentityRow {
  id: string;
  user_id: string;
  provider: string;
  provider_id: string;
  identity_data: Record<string, unknown>;
  email: string | null;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
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

/**
 * The account's e-mail identity, as GoTrue lists one for every account that signs in with an address and a password
 * (`getUserIdentities()`). It is the auth_users row itself seen as an identity, so its ids are the user's.
 */
function emailIdentity(user: AuthUserRow) {
  return {
    identity_id: user.id,
    id: user.id,
    user_id: user.id,
    identity_data: { sub: user.id, email: user.email, email_verified: user.email_confirmed_at !== null, phone_verified: false },
    provider: "email",
    email: user.email,
    last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
  };
}

/** An identity from another provider (Discord), as GoTrue lists it: `id` is the provider's id of the person. */
function providerIdentity(identity: IdentityRow) {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    email: identity.email,
    last_sign_in_at: identity.last_sign_in_at?.toISOString() ?? null,
    created_at: identity.created_at.toISOString(),
    updated_at: identity.updated_at.toISOString(),
  };
}

/**
 * A user object as GoTrue returns it, with its identities: the e-mail one while the account has a password, and one
 * per linked provider. `app_metadata.provider` is the way the account was made: an identity made in the account's
 * own transaction (the same `now()`) made it.
 */
function toGoTrueUser(user: AuthUserRow, identities: IdentityRow[], extra: Record<string, unknown> = {}) {
  const created = user.created_at.toISOString();
  const confirmed = user.email_confirmed_at?.toISOString() ?? null;
  const listed = [...(user.has_password ? [emailIdentity(user)] : []), ...identities.map(providerIdentity)];
  const madeBy = identities.find((identity) => identity.created_at.getTime() === user.created_at.getTime())?.provider ?? "email";
  return {
    id: user.id,
    aud: "authenticated",
    role: "authenticated",
    email: user.email,
    email_confirmed_at: confirmed,
    phone: "",
    confirmed_at: confirmed,
    last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    app_metadata: { provider: madeBy, providers: [...new Set(listed.map((identity) => identity.provider))] },
    user_metadata: user.user_metadata,
    identities: listed,
    created_at: created,
    updated_at: user.updated_at.toISOString(),
    is_anonymous: false,
    ...extra,
  };
}

export function createLocalAuthHandler({
  db,
  jwtSecret,
  confirmEmail = false,
  clock = () => new Date(),
  onSessionsEnded = async () => {},
  discord,
  siteUrl,
  redirectUrls = [],
}: {
  db: Database;
  jwtSecret: string;
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
      user: await goTrueUser(executor, user),
    };
  }

  /** The user as GoTrue answers it, with its identities read in `executor` (a transaction sees its own writes). */
  async function goTrueUser(executor: Database, user: AuthUserRow, extra: Record<string, unknown> = {}) {
    const identities = await executor.selectFrom("auth_identities").selectAll().where("user_id", "=", user.id).orderBy("created_at").execute();
    return toGoTrueUser(user, identities, extra);
  }

  /**
   * A suspended or banned account gets no session, however it asks (password, refresh, a mailed link): GoTrue's
   * `user_banned`, with the suspension's end in Tokyo time and where to ask (ADR 030).
   */
  async function refuseStopped(executor: Database, userId: string) {
    const user = await executor.selectFrom("users").select(["suspended_until", "banned_at"]).where("id", "=", userId).executeTakeFirst();
    if (user?.banned_at) throw new AuthError(400, "user_banned", messages.moderation.banned);
    if (user?.suspended_until && user.suspended_until.getTime() > clock().getTime()) {
      throw new AuthError(400, "user_banned", messages.moderation.suspendedUntil(formatDateTime(user.suspended_until)));
    }
  }

  /** A new session for the user, begun by `method` ("password", "recovery" …), in `executor`'s transaction. */
  async function startSession(user: { id: string }, issuer: string, method = "password", executor?: Database) {
    const run = async (trx: Database) => {
      await refuseStopped(trx, user.id);
      const signedIn = await trx
        .updateTable("auth_users")
        .set({ last_sign_in_at: sql<Date>`now()` })
        .where("id", "=", user.id)
        .returning(userColumns)
        .executeTakeFirstOrThrow();
      const session = await trx.insertInto("auth_sessions").values({ user_id: user.id, method }).returning("id").executeTakeFirstOrThrow();
      return issueSession(signedIn, session.id, issuer, null, trx);
    };
    return executor ? run(executor) : db.transaction().execute(run);
  }

  /**
   * A one-time link's secret: random, mailed once, stored only as its hash. Issued in the caller's transaction with
   * the mail that carries it, so the mail exists exactly when the token does.
   */
  async function issueOneTimeToken(
    trx: Database,
    { userId, type, email, mailKind, mailTo, ttlMs }: { userId: string; type: OneTimeTokenType; email: string; mailKind: string; mailTo: string; ttlMs: number },
  ) {
    const token = randomBytes(32).toString("base64url");
    const now = clock();
    await trx
      .insertInto("auth_one_time_tokens")
      .values({ token_hash: sha256(token), user_id: userId, type, email, created_at: now, expires_at: new Date(now.getTime() + ttlMs) })
      .execute();
    await enqueueMail(trx, [{ kind: mailKind, to: mailTo, userId, data: { token, ...(type === "email_change" ? { newEmail: email } : {}) } }]);
  }

  async function readCredentials(request: Request) {
    const body = await readBody(request);
    const email = readEmail(body.email);
    const password = typeof body.password === "string" ? body.password : "";
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
    if (confirmEmail) return signupToConfirm({ email, passwordHash, data });
    const user = await db
      .insertInto("auth_users")
      .values({ email, password_hash: passwordHash, user_metadata: JSON.stringify(data), email_confirmed_at: sql<Date>`now()` })
      .onConflict((oc) => oc.column("email").doNothing())
      .returning(userColumns)
      .executeTakeFirst();
    if (!user) throw new AuthError(422, "user_already_exists", messages.auth.userExists);
    return json(await startSession(user, issuer, "signup"));
  }

  /**
   * AUTH_CONFIRM_EMAIL: the account waits for its address to be confirmed; the answer is the user without a session,
   * as GoTrue's. An address that already has an account gets the same answer (GoTrue's obfuscated user), so sign-up
   * does not tell who is registered; one still unconfirmed gets its confirmation mail again.
   */
  async function signupToConfirm({ email, passwordHash, data }: { email: string; passwordHash: string; data: object }) {
    const sentAt = clock().toISOString();
    return db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto("auth_users")
        .values({ email, password_hash: passwordHash, user_metadata: JSON.stringify(data) })
        .onConflict((oc) => oc.column("email").doNothing())
        .returning(userColumns)
        .executeTakeFirst();
      const user =
        created ??
        (await trx.selectFrom("auth_users").select(userColumns).where("email", "=", email).where("email_confirmed_at", "is", null).forUpdate().executeTakeFirst());
      if (!user) {
        const now = new Date(sentAt);
        const stranger = { id: randomUUID(), email, user_metadata: {}, created_at: now, updated_at: now, last_sign_in_at: null, email_confirmed_at: null, has_password: true };
        return json(toGoTrueUser(stranger, [], { confirmation_sent_at: sentAt }));
      }
      await issueOneTimeToken(trx, { userId: user.id, type: "signup", email, mailKind: "signup_confirm", mailTo: email, ttlMs: CONFIRMATION_LINK_TTL_MS });
      return json(await goTrueUser(trx, user, { confirmation_sent_at: sentAt }));
    });
  }

  async function passwordGrant(request: Request, issuer: string, clientIp: string) {
    const { email, password } = await readCredentials(request);
    // Failed attempts are what a password guesser makes, so those are what count (docs/product.md#constants). An address that
    // failed too often is stopped; the account itself only slows down, so nobody can lock its owner out.
    const buckets = [`sign-in:ip:${clientIp}`, `sign-in:account-ip:${email} ${clientIp}`, `sign-in:account:${email}`];
    const [byAddress, byAccountAndAddress, byAccount] = await countRateLimitEvents({ db, buckets, windowMs: SIGN_IN_RATE_LIMIT.windowMs });
    if (byAddress! >= SIGN_IN_RATE_LIMIT.limit || byAccountAndAddress! >= SIGN_IN_RATE_LIMIT.limit) {
      throw new AuthError(429, "over_request_rate_limit", messages.auth.rateLimited);
    }
    await delay(signInDelayMs(byAccount!));
    const user = await db
      .selectFrom("auth_users")
      .select([...userColumns, "password_hash"])
      .where("email", "=", email)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    // Hash even for an unknown account, so timing does not tell which emails exist.
    const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !valid) {
      await recordRateLimitEvent({ db, buckets });
      throw new AuthError(400, "invalid_credentials", messages.auth.invalidCredentials);
    }
    // Only the owner of the password learns that the address waits for confirmation.
    if (!user.email_confirmed_at) throw new AuthError(400, "email_not_confirmed", messages.auth.emailNotConfirmed);
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
        .select(["t.id", "t.used_at", "t.session_id", "s.revoked_at", "u.id as user_id", "u.email", "u.user_metadata", "u.created_at", "u.updated_at", "u.last_sign_in_at", "u.email_confirmed_at", sql<boolean>`u.password_hash is not null`.as("has_password")])
        .where("t.token_hash", "=", sha256(presented))
        .forUpdate("t")
        .executeTakeFirst();
      if (!token || token.revoked_at) return { error: "invalid" as const };
      await refuseStopped(trx, token.user_id);
      const user = {
        id: token.user_id,
        email: token.email,
        user_metadata: token.user_metadata,
        created_at: token.created_at,
        updated_at: token.updated_at,
        last_sign_in_at: token.last_sign_in_at,
        email_confirmed_at: token.email_confirmed_at,
        has_password: token.has_password,
      };
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
      .select([
        "s.revoked_at",
        "s.method",
        "u.id",
        "u.email",
        "u.user_metadata",
        "u.created_at",
        "u.updated_at",
        "u.last_sign_in_at",
        "u.email_confirmed_at",
        "u.deleted_at",
        sql<boolean>`u.password_hash is not null`.as("has_password"),
      ])
      .where("s.id", "=", claims.session_id)
      .where("u.id", "=", claims.sub)
      .executeTakeFirst();
    if (!row || row.revoked_at || row.deleted_at) throw new AuthError(403, "session_not_found", messages.auth.invalidSession);
    return { claims, user: row };
  }

  /**
   * `resetPasswordForEmail` (POST /recover): a one-time link valid for an hour goes to the address if it has an
   * account. The answer is the same either way, and so is the rate limit (per address and per client address), so
   * neither tells whether the address is registered.
   */
  async function recover(request: Request, clientIp: string) {
    const body = await readBody(request);
    const email = readEmail(body.email);
    const buckets = [`recover:ip:${clientIp}`, `recover:email:${email}`];
    const [byIp, byEmail] = await countRateLimitEvents({ db, buckets, windowMs: RECOVER_RATE_LIMIT.windowMs });
    if (byIp! >= RECOVER_RATE_LIMIT.perIp || byEmail! >= RECOVER_RATE_LIMIT.perEmail) {
      throw new AuthError(429, "over_email_send_rate_limit", messages.auth.mailRateLimited);
    }
    await db.transaction().execute(async (trx) => {
      await recordRateLimitEvent({ db: trx, buckets });
      const user = await trx.selectFrom("auth_users").select("id").where("email", "=", email).where("deleted_at", "is", null).executeTakeFirst();
      if (user) await issueOneTimeToken(trx, { userId: user.id, type: "recovery", email, mailKind: "recovery", mailTo: email, ttlMs: RECOVERY_LINK_TTL_MS });
    });
    return json({});
  }

  /**
   * `verifyOtp({ type, token_hash })` (POST /verify): spends a mailed link's token once, before it expires, and
   * answers a session. recovery: a session that may set a new password without the old one; signup: the address
   * is confirmed; email_change: the new address becomes the account's.
   */
  async function verifyLink(request: Request, issuer: string) {
    const body = await readBody(request);
    const type = body.type === "email" ? "signup" : body.type;
    const tokenHash = typeof body.token_hash === "string" ? body.token_hash : "";
    if (type !== "recovery" && type !== "signup" && type !== "email_change") {
      throw new AuthError(400, "validation_failed", messages.validation.checkInput);
    }
    if (!tokenHash || tokenHash.length > 256) throw new AuthError(403, "otp_expired", messages.auth.linkInvalid);
    const now = clock();
    const result = await db.transaction().execute(async (trx) => {
      const token = await trx
        .selectFrom("auth_one_time_tokens as t")
        .innerJoin("auth_users as u", "u.id", "t.user_id")
        .select(["t.id", "t.user_id", "t.type", "t.email", "t.expires_at", "t.used_at", "u.deleted_at"])
        .where("t.token_hash", "=", sha256(tokenHash))
        .forUpdate("t")
        .executeTakeFirst();
      if (!token || token.type !== type || token.used_at || token.deleted_at || token.expires_at <= now) return null;
      await trx.updateTable("auth_one_time_tokens").set({ used_at: now }).where("id", "=", token.id).execute();
      // A link spent: the others of its kind are void, so only the newest mail's link ever worked once.
      await trx
        .updateTable("auth_one_time_tokens")
        .set({ used_at: now })
        .where("user_id", "=", token.user_id)
        .where("type", "=", token.type)
        .where("used_at", "is", null)
        .execute();
      if (type === "email_change") {
        const taken = await trx.selectFrom("auth_users").select("id").where("email", "=", token.email).where("id", "<>", token.user_id).executeTakeFirst();
        if (taken) return "taken" as const;
        await trx.updateTable("auth_users").set({ email: token.email, updated_at: now }).where("id", "=", token.user_id).execute();
        await trx.updateTable("users").set({ email: token.email }).where("id", "=", token.user_id).execute();
      }
      // Following a link mailed to the address proves it, whatever the link was for.
      await trx
        .updateTable("auth_users")
        .set({ email_confirmed_at: sql<Date>`coalesce(email_confirmed_at, ${now})`, email_proven_at: now })
        .where("id", "=", token.user_id)
        .execute();
      return startSession({ id: token.user_id }, issuer, type, trx);
    });
    if (result === "taken") throw new AuthError(422, "email_exists", messages.auth.userExists);
    if (!result) throw new AuthError(403, "otp_expired", messages.auth.linkInvalid);
    return json(result);
  }

  /**
   * `updateUser` (PUT /user): a new password, with the current one unless the session came from a recovery link,
   * ends every other session; a new address is confirmed from itself, and the old one is told.
   */
  async function updateUser(request: Request) {
    const { claims, user } = await authenticate(request);
    const body = await readBody(request);
    refuseUnsupportedUpdate(body);
    // Everything that can refuse the update is checked before anything is written: a refusal changes nothing (but
    // count a wrong current password, as a failed sign-in).
    const newEmail = typeof body.email === "string" ? await checkEmailChange(user, body.email) : undefined;
    const data = body.data === undefined || body.data === null ? undefined : body.data;
    if (data !== undefined) {
      const row = await db.selectFrom("auth_users").select("user_metadata").where("id", "=", user.id).executeTakeFirstOrThrow();
      mergeMetadata(row.user_metadata, data);
    }
    if (typeof body.password === "string") {
      const password = body.password;
      if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
        throw new AuthError(422, "weak_password", messages.auth.passwordTooShort(PASSWORD_MIN_LENGTH));
      }
      const current = await db.selectFrom("auth_users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
      if (user.method !== "recovery") {
        const given = typeof body.current_password === "string" ? body.current_password : "";
        if (!given) throw new AuthError(400, "current_password_required", messages.auth.currentPasswordRequired);
        // Wrong current passwords count as failed sign-ins: a stolen session cannot guess its way to the password.
        const buckets = [`sign-in:account:${user.email}`];
        const [failures] = await countRateLimitEvents({ db, buckets, windowMs: SIGN_IN_RATE_LIMIT.windowMs });
        if (failures! >= SIGN_IN_RATE_LIMIT.limit) throw new AuthError(429, "over_request_rate_limit", messages.auth.rateLimited);
        if (given.length > PASSWORD_INPUT_MAX || !(await verifyPassword(given, current.password_hash ?? DUMMY_HASH))) {
          await recordRateLimitEvent({ db, buckets });
          throw new AuthError(400, "current_password_mismatch", messages.auth.currentPasswordWrong);
        }
      }
      if (current.password_hash && (await verifyPassword(password, current.password_hash))) {
        throw new AuthError(422, "same_password", messages.auth.samePassword);
      }
      const passwordHash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("auth_users").set({ password_hash: passwordHash, updated_at: clock() }).where("id", "=", user.id).execute();
        await trx
          .updateTable("auth_sessions")
          .set({ revoked_at: sql<Date>`now()`, revoked_reason: "password_changed" })
          .where("user_id", "=", user.id)
          .where("id", "<>", claims.session_id)
          .where("revoked_at", "is", null)
          .execute();
        // A recovery session may set the password once; after that it is an ordinary session.
        await trx.updateTable("auth_sessions").set({ method: "password" }).where("id", "=", claims.session_id).execute();
      });
      await onSessionsEnded(user.id, { keepSessionId: claims.session_id });
    }
    let extra: Record<string, unknown> = {};
    if (newEmail !== undefined) {
      await db.transaction().execute(async (trx) => {
        await recordRateLimitEvent({ db: trx, buckets: [`email-change:${user.id}`] });
        await issueOneTimeToken(trx, { userId: user.id, type: "email_change", email: newEmail, mailKind: "email_change_confirm", mailTo: newEmail, ttlMs: CONFIRMATION_LINK_TTL_MS });
        await enqueueMail(trx, [{ kind: "email_change_notice", to: user.email, userId: user.id, data: { newEmail } }]);
      });
      extra = { new_email: newEmail, email_change_sent_at: clock().toISOString() };
    }
    if (data !== undefined) {
      await db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom("auth_users").select("user_metadata").where("id", "=", user.id).forUpdate().executeTakeFirstOrThrow();
        const merged = mergeMetadata(row.user_metadata, data);
        await trx.updateTable("auth_users").set({ user_metadata: JSON.stringify(merged), updated_at: clock() }).where("id", "=", user.id).execute();
      });
    }
    const fresh = await db.selectFrom("auth_users").select(userColumns).where("id", "=", user.id).executeTakeFirstOrThrow();
    return json(await goTrueUser(db, fresh, extra));
  }

  /** A new address for `updateUser({ email })`, or the refusal: the same address, too many changes, or taken. */
  async function checkEmailChange(user: { id: string; email: string }, value: string) {
    const email = readEmail(value);
    if (email === user.email) throw new AuthError(422, "same_email", messages.auth.sameEmail);
    const [sent] = await countRateLimitEvents({ db, buckets: [`email-change:${user.id}`], windowMs: RECOVER_RATE_LIMIT.windowMs });
    if (sent! >= RECOVER_RATE_LIMIT.perEmail) throw new AuthError(429, "over_email_send_rate_limit", messages.auth.mailRateLimited);
    const taken = await db.selectFrom("auth_users").select("id").where("email", "=", email).executeTakeFirst();
    if (taken) throw new AuthError(422, "email_exists", messages.auth.userExists);
    return email;
  }

  /**
   * Where an OAuth sign-in may send the browser back: `redirect_to` when it is on SITE_URL's origin or under an entry
   * of AUTH_REDIRECT_URLS, else SITE_URL itself, as GoTrue does. Never a stranger's site (no open redirect).
   */
  function allowedRedirect(value: string | null) {
    const site = siteUrl();
    if (!value || value.length > 2048) return site;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return site;
    }
    if (!/^https?:$/.test(url.protocol) || url.username || url.password) return site;
    const allowed = [site, ...redirectUrls].some((entry) => {
      const prefix = new URL(entry);
      return url.origin === prefix.origin && (prefix.pathname === "/" || url.pathname === prefix.pathname || url.pathname.startsWith(prefix.pathname.replace(/\/?$/, "/")));
    });
    return allowed ? url.toString() : site;
  }

  /**
   * `signInWithOAuth` and `linkIdentity` (GET /authorize, GET /user/identities/authorize): a flow state with the
   * app's PKCE challenge and where to come back, then Discord's consent page with a state of its own and PKCE toward
   * Discord too. `skip_http_redirect` (linkIdentity's fetch) answers the URL as JSON instead of redirecting.
   */
  async function authorize(url: URL, linkUserId: string | null) {
    const provider = url.searchParams.get("provider");
    if (provider !== "discord" || !discord) throw new AuthError(400, "validation_failed", messages.auth.providerDisabled);
    const codeChallenge = url.searchParams.get("code_challenge") ?? "";
    const method = (url.searchParams.get("code_challenge_method") ?? "").toLowerCase();
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(codeChallenge) || (method !== "s256" && method !== "plain")) {
      throw new AuthError(400, "validation_failed", messages.auth.pkceRequired);
    }
    const redirectTo = allowedRedirect(url.searchParams.get("redirect_to"));
    const state = randomBytes(32).toString("base64url");
    const { url: consentUrl, codeVerifier } = await discord.startAuthorization({ redirectUri: `${siteUrl()}/auth/v1/callback`, state, scopes: DISCORD_SCOPES });
    const now = clock();
    await db.transaction().execute(async (trx) => {
      // Flows nobody finished are of no use a day later.
      await trx.deleteFrom("auth_flow_states").where("expires_at", "<", new Date(now.getTime() - OAUTH_FLOW_KEEP_MS)).execute();
      await trx
        .insertInto("auth_flow_states")
        .values({
          state_hash: sha256(state),
          provider: "discord",
          code_challenge: codeChallenge,
          code_challenge_method: method,
          redirect_to: redirectTo,
          provider_code_verifier: codeVerifier,
          link_user_id: linkUserId,
          created_at: now,
          expires_at: new Date(now.getTime() + OAUTH_FLOW_TTL_MS),
        })
        .execute();
    });
    if (url.searchParams.get("skip_http_redirect") === "true") return json({ url: consentUrl });
    return new Response(null, { status: 302, headers: { Location: consentUrl, "Cache-Control": "no-store" } });
  }

  /**
   * Discord sends the browser back here (GET /callback): the state is spent once, the code traded for who signed
   * in, the account found, linked or made (see `resolveAccount`), and the browser goes back to `redirect_to` with a
   * one-time auth code. Anything that goes wrong goes back with `error`, `error_code` and `error_description`, as
   * GoTrue's does, having written nothing but the spent state.
   */
  async function callback(url: URL) {
    const back = (to: string, error: string, errorCode: string, description: string) => {
      const target = new URL(to);
      target.searchParams.set("error", error);
      target.searchParams.set("error_code", errorCode);
      target.searchParams.set("error_description", description);
      return new Response(null, { status: 302, headers: { Location: target.toString(), "Cache-Control": "no-store" } });
    };
    const state = url.searchParams.get("state") ?? "";
    const now = clock();
    const flow = state.length > 0 && state.length <= 256
      ? await db.selectFrom("auth_flow_states").selectAll().where("state_hash", "=", sha256(state)).executeTakeFirst()
      : undefined;
    if (!flow || !discord) return back(siteUrl(), "invalid_request", "flow_state_not_found", messages.auth.discordFlowExpired);
    const claimed = await db
      .updateTable("auth_flow_states")
      .set({ state_used_at: now })
      .where("id", "=", flow.id)
      .where("state_used_at", "is", null)
      .where("expires_at", ">", now)
      .returning("id")
      .executeTakeFirst();
    if (!claimed) {
      const expired = flow.expires_at <= now && !flow.state_used_at;
      return back(flow.redirect_to, "invalid_request", expired ? "flow_state_expired" : "flow_state_not_found", messages.auth.discordFlowExpired);
    }
    const refused = url.searchParams.get("error");
    if (refused === "access_denied") return back(flow.redirect_to, "access_denied", "access_denied", messages.auth.discordCancelled);
    if (refused) return back(flow.redirect_to, "server_error", "provider_error", messages.auth.discordUnavailable);
    const code = url.searchParams.get("code") ?? "";
    if (!code || code.length > 512) return back(flow.redirect_to, "invalid_request", "bad_oauth_callback", messages.auth.discordUnavailable);
    let signedIn: { user: DiscordUser; guilds: DiscordGuild[] };
    try {
      signedIn = await discord.signIn({ code, codeVerifier: flow.provider_code_verifier, redirectUri: `${siteUrl()}/auth/v1/callback` });
    } catch (error) {
      if (!(error instanceof DiscordError)) throw error;
      log.warn({ err: error }, "auth: Discord sign-in failed");
      return back(flow.redirect_to, "server_error", "provider_error", messages.auth.discordUnavailable);
    }
    const authCode = randomUUID();
    try {
      await db.transaction().execute(async (trx) => {
        const userId = await resolveAccount(trx, signedIn.user, flow.link_user_id);
        await refuseStopped(trx, userId);
        const identityData = discordIdentityData(signedIn.user, discord);
        const identity = await trx
          .insertInto("auth_identities")
          .values({ user_id: userId, provider: "discord", provider_id: signedIn.user.id, identity_data: JSON.stringify(identityData), email: signedIn.user.email, last_sign_in_at: now })
          .onConflict((oc) =>
            oc.columns(["provider", "provider_id"]).doUpdateSet({ identity_data: JSON.stringify(identityData), email: signedIn.user.email, last_sign_in_at: now, updated_at: now }),
          )
          .returning("id")
          .executeTakeFirstOrThrow();
        // The servers as Discord lists them now: refreshed at every sign-in, so one left is gone from profiles.
        await trx.deleteFrom("discord_guilds").where("user_id", "=", userId).execute();
        const guilds = signedIn.guilds.slice(0, DISCORD_GUILDS_MAX).filter((guild) => isStorableText(guild.name));
        if (guilds.length) {
          await trx
            .insertInto("discord_guilds")
            .values(guilds.map((guild) => ({ user_id: userId, guild_id: guild.id, identity_id: identity.id, name: guild.name, icon: guild.icon })))
            .onConflict((oc) => oc.columns(["user_id", "guild_id"]).doNothing())
            .execute();
        }
        await trx.updateTable("auth_flow_states").set({ auth_code_hash: sha256(authCode), user_id: userId }).where("id", "=", flow.id).execute();
      });
    } catch (error) {
      if (error instanceof AuthError) return back(flow.redirect_to, "access_denied", error.errorCode, error.message);
      throw error;
    }
    const target = new URL(flow.redirect_to);
    target.searchParams.set("code", authCode);
    return new Response(null, { status: 302, headers: { Location: target.toString(), "Cache-Control": "no-store" } });
  }

  /**
   * Whose account a Discord sign-in is, in `trx` (which then writes the identity):
   * - linking from settings: the signed-in account, unless the Discord account is another's or it has another;
   * - a Discord account signed in before: its account;
   * - else the account with the same address, only when Discord verified it and the account proved it by a mailed
   *   link: a stranger who registered someone's address first must never get their Discord sign-in; any other
   *   account with that address refuses, and sign-in with the password then linking from settings is the way;
   * - else a new account (no password), made only for an address Discord verified.
   */
  async function resolveAccount(trx: Database, user: DiscordUser, linkUserId: string | null): Promise<string> {
    const linked = await trx
      .selectFrom("auth_identities")
      .select("user_id")
      .where("provider", "=", "discord")
      .where("provider_id", "=", user.id)
      .executeTakeFirst();
    if (linkUserId) {
      if (linked && linked.user_id !== linkUserId) throw new AuthError(422, "identity_already_exists", messages.auth.discordLinkedElsewhere);
      const account = await trx.selectFrom("auth_users").select("deleted_at").where("id", "=", linkUserId).forUpdate().executeTakeFirst();
      if (!account || account.deleted_at) throw new AuthError(403, "user_not_found", messages.auth.discordAccountGone);
      const other = await trx
        .selectFrom("auth_identities")
        .select("id")
        .where("user_id", "=", linkUserId)
        .where("provider", "=", "discord")
        .where("provider_id", "<>", user.id)
        .executeTakeFirst();
      if (other) throw new AuthError(422, "provider_already_linked", messages.auth.discordAlreadyLinked);
      return linkUserId;
    }
    if (linked) return linked.user_id;
    if (!user.email) throw new AuthError(422, "email_address_not_provided", messages.auth.discordNoEmail);
    const existing = await trx
      .selectFrom("auth_users")
      .select(["id", "email_proven_at"])
      .where("email", "=", user.email)
      .forUpdate()
      .executeTakeFirst();
    if (existing) {
      if (user.verified && existing.email_proven_at) return existing.id;
      throw new AuthError(422, "email_exists", messages.auth.discordEmailTaken);
    }
    if (!user.verified) throw new AuthError(422, "email_not_confirmed", messages.auth.discordEmailUnverified);
    const created = await trx
      .insertInto("auth_users")
      .values({
        email: user.email,
        password_hash: null,
        user_metadata: JSON.stringify(discordIdentityData(user, discord!)),
        email_confirmed_at: sql<Date>`now()`,
        email_proven_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.column("email").doNothing())
      .returning("id")
      .executeTakeFirst();
    // Someone signed up with the address between the lookup and the insert: as if they had been first.
    if (!created) throw new AuthError(422, "email_exists", messages.auth.discordEmailTaken);
    return created.id;
  }

  /**
   * `exchangeCodeForSession` (POST /token?grant_type=pkce): the auth code from the callback, with the verifier of the
   * challenge the app sent to /authorize, is a session, once. A wrong verifier spends the code too: whoever holds a
   * stolen code gets one guess.
   */
  async function pkceGrant(request: Request, issuer: string) {
    const body = await readBody(request);
    const authCode = typeof body.auth_code === "string" ? body.auth_code : "";
    const verifier = typeof body.code_verifier === "string" ? body.code_verifier : "";
    if (!authCode || !verifier || authCode.length > 256 || verifier.length > 256) {
      throw new AuthError(400, "validation_failed", messages.validation.checkInput);
    }
    const now = clock();
    const result = await db.transaction().execute(async (trx) => {
      const flow = await trx.selectFrom("auth_flow_states").selectAll().where("auth_code_hash", "=", sha256(authCode)).forUpdate().executeTakeFirst();
      if (!flow || !flow.user_id || flow.auth_code_used_at) return "not_found" as const;
      await trx.updateTable("auth_flow_states").set({ auth_code_used_at: now }).where("id", "=", flow.id).execute();
      if (flow.expires_at <= now) return "expired" as const;
      const challenge = flow.code_challenge_method === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
      if (challenge !== flow.code_challenge) return "mismatch" as const;
      return startSession({ id: flow.user_id }, issuer, flow.link_user_id ? "discord_link" : "discord", trx);
    });
    if (result === "not_found") throw new AuthError(404, "flow_state_not_found", messages.auth.oauthCodeInvalid);
    if (result === "expired") throw new AuthError(422, "flow_state_expired", messages.auth.oauthCodeExpired);
    if (result === "mismatch") throw new AuthError(400, "bad_code_verifier", messages.auth.codeVerifierMismatch);
    return json(result);
  }

  /**
   * `unlinkIdentity` (DELETE /user/identities/{identity_id}): the caller's own identity goes, with the servers it
   * brought; refused when it is the account's last way to sign in (no password). Someone else's is not found.
   */
  async function unlinkIdentity(request: Request, identityId: string) {
    const { user } = await authenticate(request);
    if (identityId === user.id) throw new AuthError(422, "validation_failed", messages.auth.emailIdentityNotDeletable);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(identityId)) throw new AuthError(404, "identity_not_found", messages.auth.identityNotFound);
    const outcome = await db.transaction().execute(async (trx) => {
      const account = await trx.selectFrom("auth_users").select(sql<boolean>`password_hash is not null`.as("has_password")).where("id", "=", user.id).forUpdate().executeTakeFirstOrThrow();
      const identities = await trx.selectFrom("auth_identities").select("id").where("user_id", "=", user.id).execute();
      if (!identities.some((identity) => identity.id === identityId)) return "not_found" as const;
      if (!account.has_password && identities.length === 1) return "last" as const;
      await trx.deleteFrom("auth_identities").where("id", "=", identityId).execute();
      await trx.updateTable("auth_users").set({ updated_at: clock() }).where("id", "=", user.id).execute();
      return "deleted" as const;
    });
    if (outcome === "not_found") throw new AuthError(404, "identity_not_found", messages.auth.identityNotFound);
    if (outcome === "last") throw new AuthError(422, "single_identity_not_deletable", messages.auth.lastSignInMethod);
    return json({});
  }

  /** What the embedded auth can tell supabase-js about itself (`GET /settings`), as GoTrue says it. */
  function settings() {
    return json({
      external: { anonymous_users: false, email: true, phone: false, discord: !!discord },
      disable_signup: false,
      mailer_autoconfirm: !confirmEmail,
      phone_autoconfirm: false,
      sms_provider: "",
      saml_enabled: false,
    });
  }

  async function logout(request: Request) {
    const { claims } = await authenticate(request);
    const scope = new URL(request.url).searchParams.get("scope") ?? "global";
    let query = db.updateTable("auth_sessions").set({ revoked_at: sql<Date>`now()`, revoked_reason: "logout" }).where("revoked_at", "is", null);
    if (scope === "local") query = query.where("id", "=", claims.session_id);
    else if (scope === "others") query = query.where("user_id", "=", claims.sub).where("id", "<>", claims.session_id);
    else query = query.where("user_id", "=", claims.sub);
    await query.execute();
    if (scope !== "local") await onSessionsEnded(claims.sub, scope === "others" ? { keepSessionId: claims.session_id } : {});
    return new Response(null, { status: 204 });
  }

  return async (request, { clientIp }) => {
    const url = new URL(request.url);
    const issuer = `${url.origin}/auth/v1`;
    const path = url.pathname.replace(/^\/auth\/v1/, "");
    // One route has a parameter: an identity's id.
    const route = `${request.method} ${/^\/user\/identities\/[^/]+$/.test(path) && path !== "/user/identities/authorize" ? "/user/identities/{identity_id}" : path}`;
    try {
      switch (route) {
        case "POST /signup":
          return await signup(request, issuer);
        case "POST /token": {
          const grant = url.searchParams.get("grant_type");
          if (grant === "password") return await passwordGrant(request, issuer, clientIp);
          if (grant === "refresh_token") return await refreshGrant(request, issuer);
          if (grant === "pkce") return await pkceGrant(request, issuer);
          throw new AuthError(400, "validation_failed", "unsupported grant_type");
        }
        case "GET /user":
          return json(await goTrueUser(db, (await authenticate(request)).user));
        case "PUT /user":
          return await updateUser(request);
        case "GET /settings":
          return settings();
        case "POST /recover":
          return await recover(request, clientIp);
        case "POST /verify":
          return await verifyLink(request, issuer);
        case "POST /logout":
          return await logout(request);
        case "GET /authorize":
          return await authorize(url, null);
        case "GET /callback":
          return await callback(url);
        case "GET /user/identities/authorize":
          return await authorize(url, (await authenticate(request)).user.id);
        case "DELETE /user/identities/{identity_id}":
          return await unlinkIdentity(request, path.slice("/user/identities/".length));
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

/**
 * What Discord said about the person, as GoTrue keeps it in the identity (and in a new account's user_metadata):
 * `full_name` the username, `custom_claims.global_name` the display name, `avatar_url` on Discord's CDN.
 */
function discordIdentityData(user: DiscordUser, discord: DiscordClient) {
  const avatarUrl = discord.avatarUrl(user);
  return {
    iss: `${discord.origin}/api`,
    sub: user.id,
    provider_id: user.id,
    name: user.username,
    full_name: user.username,
    ...(user.globalName ? { custom_claims: { global_name: user.globalName } } : {}),
    ...(avatarUrl ? { avatar_url: avatarUrl, picture: avatarUrl } : {}),
    email: user.email,
    email_verified: user.verified,
    phone_verified: false,
  };
}

/** How long an attempt on an account waits after it failed `failures` times in the window (from anywhere). */
export function signInDelayMs(failures: number) {
  const { afterFailures, baseMs, maxMs } = SIGN_IN_ACCOUNT_DELAY;
  if (failures < afterFailures) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(failures - afterFailures, 16));
}

/** An address as accounts store it (NFC, trimmed, lower case), or a 400 in GoTrue's shape. */
function readEmail(value: unknown) {
  const email = typeof value === "string" ? value.normalize("NFC").trim().toLowerCase() : "";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > EMAIL_MAX || !isStorableText(email)) {
    throw new AuthError(400, "validation_failed", messages.validation.email);
  }
  return email;
}

/**
 * `updateUser({ data })` merged into user_metadata as GoTrue does, key by key at the top level, a null value removing
 * its key; the result is held to the size and text rules of sign-up's `data`, or refused.
 */
function mergeMetadata(current: Record<string, unknown>, data: unknown) {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new AuthError(400, "validation_failed", messages.validation.checkInput);
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(data)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  if (!isStorableJson(merged)) throw new AuthError(400, "validation_failed", messages.validation.checkInput);
  if (JSON.stringify(merged).length > USER_METADATA_MAX_BYTES) throw new AuthError(400, "validation_failed", messages.auth.metadataTooLarge);
  return merged;
}

/**
 * The fields of `updateUser` the embedded auth acts on; supabase-js sends the PKCE pair with every update (null unless
 * the address changes, whose link is our own and needs none). Anything else is refused in GoTrue's shape: an update
 * must never answer 200 while storing nothing.
 */
const UPDATE_FIELDS = new Set(["email", "password", "current_password", "data", "code_challenge", "code_challenge_method"]);

function refuseUnsupportedUpdate(body: Record<string, unknown>) {
  for (const [field, value] of Object.entries(body)) {
    if (UPDATE_FIELDS.has(field) || value === null) continue;
    if (field === "phone") throw new AuthError(422, "phone_provider_disabled", messages.auth.phoneUnsupported);
    throw new AuthError(422, "validation_failed", messages.auth.unsupportedField(field));
  }
}

/** A JSON object body; anything else (not JSON, `null`, an array, a string) reads as an empty one. */
async function readBody(request: Request): Promise<Record<string, unknown>> {
  const body: unknown = await request.json().catch(() => null);
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

const delay = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

// A valid hash of a random password, verified against when the account does not exist.
const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"));
