import type { Database, IdentityProvider } from "~/infra/db/tables";

/**
 * Ways to sign in from another provider (`auth_identities`, Discord), as GoTrue's models/identity.go keeps them. The
 * queries only, in the executor given (ADR 062).
 */

export interface IdentityRow {
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

/** The account's identities, oldest first (in a transaction, as it sees its own writes). */
export async function listIdentities(executor: Database, userId: string): Promise<IdentityRow[]> {
  return executor.selectFrom("auth_identities").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();
}

export async function listIdentityIds(trx: Database, userId: string) {
  return trx.selectFrom("auth_identities").select("id").where("user_id", "=", userId).execute();
}

/** Whose the provider's person is: the account their identity belongs to. */
export async function findIdentityOwner(trx: Database, { provider, providerId }: { provider: IdentityProvider; providerId: string }) {
  return trx.selectFrom("auth_identities").select("user_id").where("provider", "=", provider).where("provider_id", "=", providerId).executeTakeFirst();
}

/** An identity of the account at the provider for another person than `providerId`. */
export async function findOtherIdentity(trx: Database, { userId, provider, providerId }: { userId: string; provider: IdentityProvider; providerId: string }) {
  return trx
    .selectFrom("auth_identities")
    .select("id")
    .where("user_id", "=", userId)
    .where("provider", "=", provider)
    .where("provider_id", "<>", providerId)
    .executeTakeFirst();
}

/** The identity of a sign-in: made, or the one there brought up to date with what the provider says now. */
export async function upsertIdentity(
  trx: Database,
  { userId, provider, providerId, identityData, email, now }: { userId: string; provider: IdentityProvider; providerId: string; identityData: object; email: string | null; now: Date },
) {
  return trx
    .insertInto("auth_identities")
    .values({ user_id: userId, provider, provider_id: providerId, identity_data: JSON.stringify(identityData), email, last_sign_in_at: now })
    .onConflict((oc) =>
      oc.columns(["provider", "provider_id"]).doUpdateSet({ identity_data: JSON.stringify(identityData), email, last_sign_in_at: now, updated_at: now }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
}

export async function deleteIdentity(trx: Database, identityId: string) {
  await trx.deleteFrom("auth_identities").where("id", "=", identityId).execute();
}
