import type { Database, IdentityProvider } from "~/infra/db/tables";

/**
 * OAuth sign-ins in progress (`auth_flow_states`), as GoTrue's models/flow_state.go keeps them: the app's PKCE
 * challenge and where to come back, the state sent to the provider (as its hash), then the one-time auth code (as
 * its hash). The queries only, in the executor given (ADR 062).
 */

export interface NewFlowState {
  stateHash: string;
  provider: IdentityProvider;
  codeChallenge: string;
  codeChallengeMethod: "s256" | "plain";
  redirectTo: string;
  providerCodeVerifier: string;
  /** The signed-in account a link from settings is for; null for a sign-in. */
  linkUserId: string | null;
  now: Date;
  expiresAt: Date;
}

/** Flows that expired before `before`: nobody finished them, and they are of no use any more. */
export async function deleteExpiredFlowStates(trx: Database, before: Date) {
  await trx.deleteFrom("auth_flow_states").where("expires_at", "<", before).execute();
}

export async function insertFlowState(trx: Database, flow: NewFlowState) {
  await trx
    .insertInto("auth_flow_states")
    .values({
      state_hash: flow.stateHash,
      provider: flow.provider,
      code_challenge: flow.codeChallenge,
      code_challenge_method: flow.codeChallengeMethod,
      redirect_to: flow.redirectTo,
      provider_code_verifier: flow.providerCodeVerifier,
      link_user_id: flow.linkUserId,
      created_at: flow.now,
      expires_at: flow.expiresAt,
    })
    .execute();
}

export async function findFlowStateByState(executor: Database, stateHash: string) {
  return executor.selectFrom("auth_flow_states").selectAll().where("state_hash", "=", stateHash).executeTakeFirst();
}

/** The state spent, once and before the flow expired; nothing when it was spent already or expired. */
export async function claimFlowState(executor: Database, { flowId, now }: { flowId: string; now: Date }) {
  return executor
    .updateTable("auth_flow_states")
    .set({ state_used_at: now })
    .where("id", "=", flowId)
    .where("state_used_at", "is", null)
    .where("expires_at", ">", now)
    .returning("id")
    .executeTakeFirst();
}

/** Who signed in, and the one-time auth code (its hash) the app will trade for their session. */
export async function setFlowAuthCode(trx: Database, { flowId, authCodeHash, userId }: { flowId: string; authCodeHash: string; userId: string }) {
  await trx.updateTable("auth_flow_states").set({ auth_code_hash: authCodeHash, user_id: userId }).where("id", "=", flowId).execute();
}

export async function lockFlowStateByAuthCode(trx: Database, authCodeHash: string) {
  return trx.selectFrom("auth_flow_states").selectAll().where("auth_code_hash", "=", authCodeHash).forUpdate().executeTakeFirst();
}

export async function spendAuthCode(trx: Database, { flowId, now }: { flowId: string; now: Date }) {
  await trx.updateTable("auth_flow_states").set({ auth_code_used_at: now }).where("id", "=", flowId).execute();
}
