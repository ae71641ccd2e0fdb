import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { DB } from "~/infra/db/tables";

/**
 * The address an account that left keeps, so its own is free for a new sign-up: unique, never deliverable (RFC 2606
 * `.invalid`), and with a random part, since user ids are public: nobody can sign up with it beforehand and make the
 * departure collide with their address.
 */
export const leftAccountEmail = (userId: string) => `deleted+${userId}.${randomBytes(6).toString("hex")}@deleted.invalid`;

/**
 * Ends an account on the app's own auth server (退会, ADR 028), inside the caller's transaction: every session revoked
 * (`account_deleted`), so its access tokens stop at once and its refresh tokens fail; its one-time links gone; its
 * address freed and its password hash replaced by one no password matches, so signing in with the old address finds
 * nobody and the address can sign up again as a new account; its Discord identity and servers deleted. The row stays,
 * with `deleted_at`, for its sessions' history. With hosted Supabase there is no row here and nothing changes (the app refuses the account's tokens instead).
 */
export async function closeLocalAccount(trx: Transaction<DB>, { userId, now }: { userId: string; now: Date }) {
  await trx
    .updateTable("auth_sessions")
    .set({ revoked_at: now, revoked_reason: "account_deleted" })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
  await trx.deleteFrom("auth_one_time_tokens").where("user_id", "=", userId).execute();
  // Its Discord sign-in goes too, with the servers it brought (migration 0018): that Discord account may sign up anew.
  await trx.deleteFrom("auth_identities").where("user_id", "=", userId).execute();
  await trx.deleteFrom("auth_flow_states").where((eb) => eb.or([eb("user_id", "=", userId), eb("link_user_id", "=", userId)])).execute();
  await trx
    .updateTable("auth_users")
    // "!" is not a `scrypt$…` hash: verifyPassword answers false for every password.
    .set({ email: leftAccountEmail(userId), password_hash: "!", user_metadata: "{}", deleted_at: now, updated_at: now })
    .where("id", "=", userId)
    .execute();
}
