import { sql } from "kysely";
import type { AuthUser } from "~/infra/auth/session";
import type { Database } from "~/infra/db/tables";
import { SESSION_LIST_MAX } from "~/lib/constants";
import { deviceLabel } from "~/lib/user-agent";
import { notifySessionsEnded } from "./sessions.server";

/**
 * 「ログイン中の端末」 (/settings/security, docs/product.md#sessions): the devices a user is signed in on, as the
 * embedded auth server's sessions, and ending one of them. Hosted Supabase keeps its sessions to itself: there the
 * page offers 「この端末以外からログアウト」 alone (supabase-js `signOut({ scope: "others" })`).
 *
 * A session is live until it is revoked (sign-out, a new password, a reused refresh token, a verified factor, a
 * suspension): the embedded auth ends sessions by nothing else, neither inactivity nor age, so `revoked_at` is all
 * there is to read.
 */

/**
 * The user's live sessions, `currentSessionId` first (it is in use now, whatever its last refresh says), then by last
 * use: the last refresh, else the sign-in. At most `limit`.
 */
export async function listLiveSessions(db: Database, { userId, currentSessionId, limit = SESSION_LIST_MAX }: { userId: string; currentSessionId: string | null; limit?: number }) {
  return db
    .selectFrom("auth_sessions")
    .select(["id", "created_at", sql<Date>`coalesce(refreshed_at, created_at)`.as("last_used_at"), "aal", "user_agent", "ip"])
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .orderBy(sql`id = ${currentSessionId}`, "desc")
    .orderBy(sql`coalesce(refreshed_at, created_at)`, "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Ends one live session of the user's, as signing out on that device would: its refresh token and access tokens are
 * refused from now on, and its sockets (theirs alone) close on every process when this commits. False, and nothing done, for a session that is not
 * the user's, not live, or not there at all.
 */
export async function revokeUserSession({ db, userId, sessionId }: { db: Database; userId: string; sessionId: string }) {
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable("auth_sessions")
      .set({ revoked_at: sql<Date>`now()`, revoked_reason: "logout" })
      .where("id", "=", sessionId)
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (ended) await notifySessionsEnded(trx, { userId, sessionId });
    return !!ended;
  });
}

/** A row of 「ログイン中の端末」, as the page shows it. */
export interface SessionListItem {
  id: string;
  /** 「Chrome · Windows」 (app/lib/user-agent.ts). */
  device: string;
  signedInAt: Date;
  lastUsedAt: Date;
  /** 「二段階認証済み」: a factor was verified in this session. */
  verified: boolean;
  /** 「この端末」: the session of the request. */
  current: boolean;
}

/**
 * What /settings/security's loader hands `SessionList` (app/components/session-list.tsx): the caller's live sessions,
 * or null where the app cannot list them (hosted Supabase: `user.sessionId` is null).
 */
export async function loadSessionList({ db, user }: { db: Database; user: AuthUser }): Promise<SessionListItem[] | null> {
  if (!user.sessionId) return null;
  const sessions = await listLiveSessions(db, { userId: user.id, currentSessionId: user.sessionId });
  return sessions.map((session) => ({
    id: session.id,
    device: deviceLabel(session.user_agent),
    signedInAt: session.created_at,
    lastUsedAt: session.last_used_at,
    verified: session.aal === "aal2",
    current: session.id === user.sessionId,
  }));
}
