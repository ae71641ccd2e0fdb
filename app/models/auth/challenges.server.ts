import type { Database } from "~/infra/db/tables";

/**
 * The challenges of a factor (`auth_mfa_challenges`), as GoTrue's models/challenge.go keeps them: one per
 * challenge, with the client address that asked, verified once. The queries only (ADR 062).
 */

export async function insertChallenge(executor: Database, { factorId, ipAddress, now }: { factorId: string; ipAddress: string; now: Date }) {
  return executor.insertInto("auth_mfa_challenges").values({ factor_id: factorId, ip_address: ipAddress, created_at: now }).returning(["id", "created_at"]).executeTakeFirstOrThrow();
}

/** The factor's challenge `challengeId` (GoTrue's FindChallengeByID on the factor); none for another factor's. */
export async function findFactorChallenge(executor: Database, { factorId, challengeId }: { factorId: string; challengeId: string }) {
  return executor
    .selectFrom("auth_mfa_challenges")
    .select(["id", "created_at", "verified_at", "ip_address"])
    .where("id", "=", challengeId)
    .where("factor_id", "=", factorId)
    .executeTakeFirst();
}

export async function deleteChallenge(executor: Database, challengeId: string) {
  await executor.deleteFrom("auth_mfa_challenges").where("id", "=", challengeId).execute();
}

export async function markChallengeVerified(trx: Database, { challengeId, now }: { challengeId: string; now: Date }) {
  await trx.updateTable("auth_mfa_challenges").set({ verified_at: now }).where("id", "=", challengeId).execute();
}
