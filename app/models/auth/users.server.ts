import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";

/**
 * The embedded auth server's accounts (`auth_users`), as GoTrue's models/user.go keeps them: the queries only, each in
 * the executor it is given, so the auth server's handlers keep their transactions where GoTrue's do (ADR 062).
 */

export interface AuthUserRow {
  id: string;
  email: string;
  user_metadata: Record<string, unknown>;
  /** GoTrue's raw_app_meta_data: what the owner cannot change (the operators' `roles`). */
  app_metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  last_sign_in_at: Date | null;
  email_confirmed_at: Date | null;
  /** The account can sign in with its address and a password (an account made by Discord has none until it sets one). */
  has_password: boolean;
}

/** The columns of an `AuthUserRow`. */
export const userColumns = [
  "id",
  "email",
  "user_metadata",
  "app_metadata",
  "created_at",
  "updated_at",
  "last_sign_in_at",
  "email_confirmed_at",
  sql<boolean>`password_hash is not null`.as("has_password"),
] as const;

/**
 * A new account with an address and a password, confirmed at once unless it waits for its confirmation mail; nothing
 * when the address has an account already.
 */
export async function insertPasswordUser(
  executor: Database,
  { email, passwordHash, data, confirmed }: { email: string; passwordHash: string; data: object; confirmed: boolean },
): Promise<AuthUserRow | undefined> {
  return executor
    .insertInto("auth_users")
    .values({
      email,
      password_hash: passwordHash,
      user_metadata: JSON.stringify(data),
      ...(confirmed ? { email_confirmed_at: sql<Date>`now()` } : {}),
    })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning(userColumns)
    .executeTakeFirst();
}

/** A new account made by a Discord sign-in: no password, its address proven by Discord; nothing if the address was taken. */
export async function insertProviderUser(trx: Database, { email, metadata }: { email: string; metadata: object }) {
  return trx
    .insertInto("auth_users")
    .values({
      email,
      password_hash: null,
      user_metadata: JSON.stringify(metadata),
      email_confirmed_at: sql<Date>`now()`,
      email_proven_at: sql<Date>`now()`,
    })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning("id")
    .executeTakeFirst();
}

/** The account with this address still waiting for its confirmation, locked. */
export async function lockUnconfirmedUser(trx: Database, email: string): Promise<AuthUserRow | undefined> {
  return trx.selectFrom("auth_users").select(userColumns).where("email", "=", email).where("email_confirmed_at", "is", null).forUpdate().executeTakeFirst();
}

/** The account that signs in with this address, with its password's hash; not one that left. */
export async function findPasswordUser(executor: Database, email: string) {
  return executor
    .selectFrom("auth_users")
    .select([...userColumns, "password_hash"])
    .where("email", "=", email)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** The id of the account with this address, not one that left. */
export async function findLiveUserId(executor: Database, email: string) {
  return executor.selectFrom("auth_users").select("id").where("email", "=", email).where("deleted_at", "is", null).executeTakeFirst();
}

/** The account with this address, whatever its state. */
export async function findUserIdByEmail(executor: Database, email: string) {
  return executor.selectFrom("auth_users").select("id").where("email", "=", email).executeTakeFirst();
}

/** Another account with this address than `userId`'s. */
export async function findOtherUserWithEmail(executor: Database, { email, userId }: { email: string; userId: string }) {
  return executor.selectFrom("auth_users").select("id").where("email", "=", email).where("id", "<>", userId).executeTakeFirst();
}

/** The account with this address, locked, with when a mailed link proved it (Discord's sign-in may link to it then). */
export async function lockUserByEmail(trx: Database, email: string) {
  return trx.selectFrom("auth_users").select(["id", "email_proven_at"]).where("email", "=", email).forUpdate().executeTakeFirst();
}

/** The account, locked, with whether it left. */
export async function lockUserDeleted(trx: Database, userId: string) {
  return trx.selectFrom("auth_users").select("deleted_at").where("id", "=", userId).forUpdate().executeTakeFirst();
}

/** The account, locked, with whether it has a password. */
export async function lockUserHasPassword(trx: Database, userId: string) {
  return trx.selectFrom("auth_users").select(sql<boolean>`password_hash is not null`.as("has_password")).where("id", "=", userId).forUpdate().executeTakeFirstOrThrow();
}

export async function readUser(executor: Database, userId: string): Promise<AuthUserRow> {
  return executor.selectFrom("auth_users").select(userColumns).where("id", "=", userId).executeTakeFirstOrThrow();
}

/** The account signed in now (the database's clock), as it reads after that. */
export async function markSignedIn(trx: Database, userId: string): Promise<AuthUserRow> {
  return trx
    .updateTable("auth_users")
    .set({ last_sign_in_at: sql<Date>`now()` })
    .where("id", "=", userId)
    .returning(userColumns)
    .executeTakeFirstOrThrow();
}

export async function readPasswordHash(executor: Database, userId: string) {
  return executor.selectFrom("auth_users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow();
}

export async function setPasswordHash(trx: Database, { userId, passwordHash, now }: { userId: string; passwordHash: string; now: Date }) {
  await trx.updateTable("auth_users").set({ password_hash: passwordHash, updated_at: now }).where("id", "=", userId).execute();
}

/** The account's user_metadata, locked when `lock` (the merge that writes it back). */
export async function readUserMetadata(executor: Database, userId: string, { lock = false }: { lock?: boolean } = {}) {
  const query = executor.selectFrom("auth_users").select("user_metadata").where("id", "=", userId);
  return (lock ? query.forUpdate() : query).executeTakeFirstOrThrow();
}

export async function setUserMetadata(trx: Database, { userId, metadata, now }: { userId: string; metadata: object; now: Date }) {
  await trx.updateTable("auth_users").set({ user_metadata: JSON.stringify(metadata), updated_at: now }).where("id", "=", userId).execute();
}

/** The account's app_metadata (GoTrue's raw_app_meta_data), or nothing for an account not here. */
export async function readAppMetadata(executor: Database, userId: string) {
  const row = await executor.selectFrom("auth_users").select("app_metadata").where("id", "=", userId).executeTakeFirst();
  return row?.app_metadata;
}

/**
 * Keys written into the account's app_metadata as GoTrue's UpdateAppMetaData does: merged into what is there, a key
 * set to null removed.
 */
export async function mergeAppMetadata(trx: Database, { userId, patch }: { userId: string; patch: Record<string, unknown> }) {
  const removed = Object.keys(patch).filter((key) => patch[key] === null);
  const kept = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null));
  await trx
    .updateTable("auth_users")
    .set({ app_metadata: sql<string>`(app_metadata - ${removed}::text[]) || ${JSON.stringify(kept)}::jsonb`, updated_at: sql<Date>`now()` })
    .where("id", "=", userId)
    .execute();
}

/** A new address for the account: the sign-in's and the member's (`users.email`) together. */
export async function changeEmail(trx: Database, { userId, email, now }: { userId: string; email: string; now: Date }) {
  await trx.updateTable("auth_users").set({ email, updated_at: now }).where("id", "=", userId).execute();
  await trx.updateTable("users").set({ email }).where("id", "=", userId).execute();
}

/** A link mailed to the address was followed: it is confirmed (if it was not yet) and proven now. */
export async function proveEmail(trx: Database, { userId, now }: { userId: string; now: Date }) {
  await trx
    .updateTable("auth_users")
    .set({ email_confirmed_at: sql<Date>`coalesce(email_confirmed_at, ${now})`, email_proven_at: now })
    .where("id", "=", userId)
    .execute();
}

export async function touchUser(trx: Database, { userId, now }: { userId: string; now: Date }) {
  await trx.updateTable("auth_users").set({ updated_at: now }).where("id", "=", userId).execute();
}

/** Whether the member is stopped by moderation (ADR 030): banned, or suspended until when. */
export async function readModerationState(executor: Database, userId: string) {
  return executor.selectFrom("users").select(["suspended_until", "banned_at"]).where("id", "=", userId).executeTakeFirst();
}
