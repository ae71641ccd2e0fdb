import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";

/**
 * A user's TOTP factors (`auth_mfa_factors`), as GoTrue's models/factor.go keeps them. The queries only, each in the
 * executor it is given (ADR 062); the secret is read only where a code is checked.
 */

const LISTED = ["id", "friendly_name", "factor_type", "status", "created_at", "updated_at"] as const;

/** The user's factors as `user.factors` lists them, oldest first (without their secrets). */
export async function listFactors(executor: Database, userId: string) {
  return executor.selectFrom("auth_mfa_factors").select(LISTED).where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
}
export type FactorRow = Awaited<ReturnType<typeof listFactors>>[number];

/**
 * GoTrue's DeleteExpiredFactors: unverified factors enrolled before `before` that were never challenged (an
 * enrolment left half-way).
 */
export async function deleteStaleFactors(executor: Database, before: Date) {
  await executor
    .deleteFrom("auth_mfa_factors as f")
    .where("f.status", "<>", "verified")
    .where("f.created_at", "<", before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("auth_mfa_challenges as c").select("c.id").whereRef("c.factor_id", "=", "f.id"))))
    .execute();
}

export async function insertFactor(executor: Database, { userId, friendlyName, secret, now }: { userId: string; friendlyName: string; secret: string; now: Date }) {
  return executor
    .insertInto("auth_mfa_factors")
    .values({ user_id: userId, friendly_name: friendlyName, factor_type: "totp", status: "unverified", secret, created_at: now, updated_at: now })
    .returning(LISTED)
    .executeTakeFirstOrThrow();
}

/**
 * The user's factor `factorId`, with its secret; none for another user's (GoTrue's FindOwnedFactorByID). `lock`
 * holds it for the caller's transaction (a verify).
 */
export async function findOwnedFactor(executor: Database, { userId, factorId, lock = false }: { userId: string; factorId: string; lock?: boolean }) {
  let query = executor
    .selectFrom("auth_mfa_factors")
    .select([...LISTED, "secret", "last_verified_step"])
    .where("id", "=", factorId)
    .where("user_id", "=", userId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function markFactorChallenged(executor: Database, { factorId, now }: { factorId: string; now: Date }) {
  await executor.updateTable("auth_mfa_factors").set({ last_challenged_at: now }).where("id", "=", factorId).execute();
}

/**
 * The factor verified with a code of `step`, if no code of that step or a later one was accepted before: false when
 * the step is replayed (the row's lock, taken by `findOwnedFactor`, makes this exact).
 */
export async function acceptFactorStep(trx: Database, { factorId, step, now }: { factorId: string; step: number; now: Date }) {
  const updated = await trx
    .updateTable("auth_mfa_factors")
    .set({ status: "verified", last_verified_step: step, updated_at: now })
    .where("id", "=", factorId)
    .where((eb) => eb.or([eb("last_verified_step", "is", null), eb("last_verified_step", "<", step)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** GoTrue's DeleteUnverifiedFactors: the user's other unverified factors, once one was verified. */
export async function deleteUnverifiedFactors(trx: Database, userId: string) {
  await trx.deleteFrom("auth_mfa_factors").where("user_id", "=", userId).where("status", "=", "unverified").execute();
}

export async function deleteFactor(trx: Database, factorId: string) {
  await trx.deleteFrom("auth_mfa_factors").where("id", "=", factorId).execute();
}

/** Whether the user has a verified factor (GoTrue's HasMFAEnabled). */
export async function hasVerifiedFactor(executor: Database, userId: string) {
  const row = await executor
    .selectFrom("auth_mfa_factors")
    .select(sql<number>`1`.as("one"))
    .where("user_id", "=", userId)
    .where("status", "=", "verified")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Every factor of the user, and what they proved (a recovery code turned the second step off, ADR 064): the sessions
 * they raised drop to aal1, as when one is unenrolled.
 */
export async function deleteUserFactors(trx: Database, userId: string) {
  await trx.updateTable("auth_sessions").set({ aal: "aal1", factor_id: null, mfa_verified_at: null }).where("user_id", "=", userId).where("factor_id", "is not", null).execute();
  await trx.deleteFrom("auth_mfa_factors").where("user_id", "=", userId).execute();
}
