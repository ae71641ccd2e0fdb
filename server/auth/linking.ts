import type { Database } from "../../app/infra/db/tables";
import type { DiscordClient, DiscordUser } from "../../app/infra/discord";
import { messages } from "../../app/lib/messages";
import { findIdentityOwner, findOtherIdentity } from "../../app/models/auth/identities.server";
import { insertProviderUser, lockUserByEmail, lockUserDeleted } from "../../app/models/auth/users.server";
import { AuthError, ErrorCode } from "./errors";
import { discordIdentityData } from "./provider-discord";

/**
 * Whose account a Discord sign-in is (GoTrue's models/linking.go decides the same), in `trx`, which then writes the
 * identity:
 * - linking from settings: the signed-in account, unless the Discord account is another's or it has another;
 * - a Discord account signed in before: its account;
 * - else the account with the same address, only when Discord verified it and the account proved it by a mailed
 *   link: a stranger who registered someone's address first must never get their Discord sign-in; any other
 *   account with that address refuses, and sign-in with the password then linking from settings is the way;
 * - else a new account (no password), made only for an address Discord verified.
 */
export async function resolveAccount(trx: Database, { user, linkUserId, discord }: { user: DiscordUser; linkUserId: string | null; discord: DiscordClient }): Promise<string> {
  const linked = await findIdentityOwner(trx, { provider: "discord", providerId: user.id });
  if (linkUserId) {
    if (linked && linked.user_id !== linkUserId) throw new AuthError(422, ErrorCode.IdentityAlreadyExists, messages.auth.discordLinkedElsewhere);
    const account = await lockUserDeleted(trx, linkUserId);
    if (!account || account.deleted_at) throw new AuthError(403, ErrorCode.UserNotFound, messages.auth.discordAccountGone);
    const other = await findOtherIdentity(trx, { userId: linkUserId, provider: "discord", providerId: user.id });
    if (other) throw new AuthError(422, ErrorCode.ProviderAlreadyLinked, messages.auth.discordAlreadyLinked);
    return linkUserId;
  }
  if (linked) return linked.user_id;
  if (!user.email) throw new AuthError(422, ErrorCode.EmailAddressNotProvided, messages.auth.discordNoEmail);
  const existing = await lockUserByEmail(trx, user.email);
  if (existing) {
    if (user.verified && existing.email_proven_at) return existing.id;
    throw new AuthError(422, ErrorCode.EmailExists, messages.auth.discordEmailTaken);
  }
  if (!user.verified) throw new AuthError(422, ErrorCode.EmailNotConfirmed, messages.auth.discordEmailUnverified);
  const created = await insertProviderUser(trx, { email: user.email, metadata: discordIdentityData(user, discord) });
  // Someone signed up with the address between the lookup and the insert: as if they had been first.
  if (!created) throw new AuthError(422, ErrorCode.EmailExists, messages.auth.discordEmailTaken);
  return created.id;
}
