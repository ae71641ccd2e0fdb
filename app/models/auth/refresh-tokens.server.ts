import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";

/**
 * A session's refresh tokens (`auth_refresh_tokens`), as GoTrue's models/refresh_token.go keeps them: each stored as
 * its hash, spent once, the next one its child. The queries only, in the executor given (ADR 062).
 */

export async function insertRefreshToken(executor: Database, { tokenHash, sessionId, parentId }: { tokenHash: string; sessionId: string; parentId: number | null }) {
  await executor.insertInto("auth_refresh_tokens").values({ token_hash: tokenHash, session_id: sessionId, parent_id: parentId }).execute();
}

/** The presented token, locked, with its session's state and its account as an `AuthUserRow` reads. */
export async function lockRefreshToken(trx: Database, tokenHash: string) {
  return trx
    .selectFrom("auth_refresh_tokens as t")
    .innerJoin("auth_sessions as s", "s.id", "t.session_id")
    .innerJoin("auth_users as u", "u.id", "s.user_id")
    .select(["t.id", "t.used_at", "t.superseded_at", "t.session_id", "s.revoked_at", "u.id as user_id", "u.email", "u.user_metadata", "u.app_metadata", "u.created_at", "u.updated_at", "u.last_sign_in_at", "u.email_confirmed_at", sql<boolean>`u.password_hash is not null`.as("has_password")])
    .where("t.token_hash", "=", tokenHash)
    .forUpdate("t")
    .executeTakeFirst();
}

/** The token issued when `parentId` was spent. */
export async function findChildToken(trx: Database, parentId: number) {
  return trx.selectFrom("auth_refresh_tokens").select(["id", "used_at"]).where("parent_id", "=", parentId).executeTakeFirst();
}

export async function markRefreshTokenUsed(trx: Database, tokenId: number) {
  await trx.updateTable("auth_refresh_tokens").set({ used_at: sql<Date>`now()` }).where("id", "=", tokenId).execute();
}

/**
 * The session's tokens not yet spent can refresh no more (its level changed: GoTrue moves its counter on by two), so
 * only the token issued with the new level carries it on.
 */
export async function supersedeSessionTokens(trx: Database, sessionId: string) {
  await trx.updateTable("auth_refresh_tokens").set({ superseded_at: sql<Date>`now()` }).where("session_id", "=", sessionId).where("used_at", "is", null).where("superseded_at", "is", null).execute();
}
