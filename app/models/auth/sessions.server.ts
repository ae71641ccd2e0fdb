import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import { SESSIONS_ENDED_CHANNEL } from "../moderation.server";

/**
 * The embedded auth server's sessions (`auth_sessions`), as GoTrue's models/sessions.go keeps them: one per sign-in,
 * revoked with a reason, never deleted. The queries only, each in the executor it is given (ADR 062).
 */

/** Why a session ended, as `revoked_reason` says it. */
export type RevokedReason = "logout" | "password_changed" | "refresh_token_reused" | "mfa_verified";

/** Where a session began: the browser's User-Agent and the client address, cleaned (app/lib/user-agent.ts); null when unknown. */
export interface SessionDevice {
  userAgent: string | null;
  ip: string | null;
}

/** A new session of the user, begun by `method` ("password", "recovery" …) on `device`. */
export async function insertSession(trx: Database, { userId, method, device }: { userId: string; method: string; device: SessionDevice }) {
  return trx
    .insertInto("auth_sessions")
    .values({ user_id: userId, method, user_agent: device.userAgent, ip: device.ip })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** A bearer token's session with its account, as the caller is checked: revoked or left is for the caller to judge. */
export async function findSessionWithUser(executor: Database, { sessionId, userId }: { sessionId: string; userId: string }) {
  return executor
    .selectFrom("auth_sessions as s")
    .innerJoin("auth_users as u", "u.id", "s.user_id")
    .select([
      "s.revoked_at",
      "s.method",
      "s.aal",
      "u.id",
      "u.email",
      "u.user_metadata",
      "u.app_metadata",
      "u.created_at",
      "u.updated_at",
      "u.last_sign_in_at",
      "u.email_confirmed_at",
      "u.deleted_at",
      sql<boolean>`u.password_hash is not null`.as("has_password"),
    ])
    .where("s.id", "=", sessionId)
    .where("u.id", "=", userId)
    .executeTakeFirst();
}

export async function markSessionRefreshed(trx: Database, sessionId: string) {
  await trx.updateTable("auth_sessions").set({ refreshed_at: sql<Date>`now()` }).where("id", "=", sessionId).execute();
}

/** What a session began as from now on (a recovery session that has set its password is an ordinary one). */
export async function setSessionMethod(trx: Database, { sessionId, method }: { sessionId: string; method: string }) {
  await trx.updateTable("auth_sessions").set({ method }).where("id", "=", sessionId).execute();
}

export async function revokeSession(trx: Database, { sessionId, reason }: { sessionId: string; reason: RevokedReason }) {
  await trx.updateTable("auth_sessions").set({ revoked_at: sql<Date>`now()`, revoked_reason: reason }).where("id", "=", sessionId).execute();
}

/** Every live session of the user but `keepSessionId`. */
export async function revokeOtherSessions(trx: Database, { userId, keepSessionId, reason }: { userId: string; keepSessionId: string; reason: RevokedReason }) {
  await trx
    .updateTable("auth_sessions")
    .set({ revoked_at: sql<Date>`now()`, revoked_reason: reason })
    .where("user_id", "=", userId)
    .where("id", "<>", keepSessionId)
    .where("revoked_at", "is", null)
    .execute();
}

/**
 * Sign-out's sessions, by supabase-js's `scope`: `local` the caller's session, `others` the user's other live
 * sessions, anything else (`global`) all of the user's live sessions.
 */
export async function revokeSessionsInScope(db: Database, { scope, sessionId, userId }: { scope: string; sessionId: string; userId: string }) {
  let query = db.updateTable("auth_sessions").set({ revoked_at: sql<Date>`now()`, revoked_reason: "logout" }).where("revoked_at", "is", null);
  if (scope === "local") query = query.where("id", "=", sessionId);
  else if (scope === "others") query = query.where("user_id", "=", userId).where("id", "<>", sessionId);
  else query = query.where("user_id", "=", userId);
  await query.execute();
}

/**
 * What a session's access tokens say of how it was proven (GoTrue's CalculateAALAndAMR): its level, when it began and,
 * at aal2, when a factor was verified in it.
 */
export async function readSessionAssurance(executor: Database, sessionId: string) {
  return executor.selectFrom("auth_sessions").select(["aal", "created_at", "mfa_verified_at"]).where("id", "=", sessionId).executeTakeFirstOrThrow();
}

/** The session proven by `factorId` at `now`: aal2, with its `totp` entry in `amr` (GoTrue's AddClaimToSession). */
export async function raiseSessionToAal2(trx: Database, { sessionId, factorId, now }: { sessionId: string; factorId: string; now: Date }) {
  await trx.updateTable("auth_sessions").set({ aal: "aal2", factor_id: factorId, mfa_verified_at: now }).where("id", "=", sessionId).execute();
}

/**
 * GoTrue's InvalidateSessionsWithAALLessThan: once a factor is verified, the user's live sessions still at aal1
 * end. Answers whether any did (their sockets are to close).
 */
export async function revokeSessionsBelowAal2(trx: Database, userId: string) {
  const ended = await trx
    .updateTable("auth_sessions")
    .set({ revoked_at: sql<Date>`now()`, revoked_reason: "mfa_verified" })
    .where("user_id", "=", userId)
    .where("aal", "<>", "aal2")
    .where("revoked_at", "is", null)
    .returning("id")
    .execute();
  return ended.length > 0;
}

/** GoTrue's DowngradeSessionsToAAL1: the sessions a removed factor had proven are aal1 again. */
export async function downgradeFactorSessions(trx: Database, factorId: string) {
  await trx.updateTable("auth_sessions").set({ aal: "aal1", factor_id: null, mfa_verified_at: null }).where("factor_id", "=", factorId).execute();
}

/**
 * Every server process closes the user's sockets when `executor`'s transaction commits (server/app/realtime.ts): all of
 * them (a suspension), or only those of `sessionId` (one device signed out from another), since a socket the server
 * closes does not come back by itself. For a change made where no socket is at hand (the operators' command, a form
 * action), the same on every process. The notice is the user's id, then the session's after a space.
 */
export async function notifySessionsEnded(executor: Database, { userId, sessionId }: { userId: string; sessionId?: string }) {
  await sql`select pg_notify(${SESSIONS_ENDED_CHANNEL}, ${sessionId ? `${userId} ${sessionId}` : userId})`.execute(executor);
}

/** What `notifySessionsEnded` said: whose sockets to close, and of which session only, if it named one. */
export function readSessionsEndedNotice(payload: string) {
  const [userId = "", sessionId] = payload.split(" ");
  return { userId, sessionId };
}

/** A session as `findSessionWithUser` reads it. */
export type SessionWithUser = NonNullable<Awaited<ReturnType<typeof findSessionWithUser>>>;
