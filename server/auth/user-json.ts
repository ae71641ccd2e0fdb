import type { Database } from "../../app/infra/db/tables";
import { listFactors, type FactorRow } from "../../app/models/auth/factors.server";
import { listIdentities, type IdentityRow } from "../../app/models/auth/identities.server";
import type { AuthUserRow } from "../../app/models/auth/users.server";

/**
 * A user as GoTrue answers it (its models/user.go and identity.go as JSON), which supabase-js and @supabase/ssr
 * read unchanged.
 */

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

/** A factor as GoTrue lists it in `user.factors` (models/factor.go), its secret never. */
function factorJson(factor: FactorRow) {
  return {
    id: factor.id,
    friendly_name: factor.friendly_name,
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: factor.created_at.toISOString(),
    updated_at: factor.updated_at.toISOString(),
  };
}

/**
 * A user object as GoTrue returns it, with its identities: the e-mail one while the account has a password, and one
 * per linked provider. `app_metadata.provider` is the way the account was made: an identity made in the account's
 * own transaction (the same `now()`) made it.
 */
export function toGoTrueUser(user: AuthUserRow, identities: IdentityRow[], extra: Record<string, unknown> = {}, factors: FactorRow[] = []) {
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
    app_metadata: { ...user.app_metadata, provider: madeBy, providers: [...new Set(listed.map((identity) => identity.provider))] },
    user_metadata: user.user_metadata,
    identities: listed,
    // GoTrue leaves `factors` out while there are none (omitempty); supabase-js reads it as [] then.
    ...(factors.length > 0 ? { factors: factors.map(factorJson) } : {}),
    created_at: created,
    updated_at: user.updated_at.toISOString(),
    is_anonymous: false,
    ...extra,
  };
}

/** The user as GoTrue answers it, with its identities and factors read in `executor` (a transaction sees its own writes). */
export async function goTrueUser(executor: Database, user: AuthUserRow, extra: Record<string, unknown> = {}) {
  return toGoTrueUser(user, await listIdentities(executor, user.id), extra, await listFactors(executor, user.id));
}
