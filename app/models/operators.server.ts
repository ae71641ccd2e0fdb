import { sql } from "kysely";
import type { HostedAppMetadata } from "~/infra/auth/hosted-admin";
import type { Database } from "~/infra/db/tables";
import { OPERATOR_ROLES, type OperatorRole } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { mergeAppMetadata, readAppMetadata } from "./auth/users.server";
import { recordOperatorAction, type Operator } from "./operator-audit.server";

/**
 * The operators' roles (ADR 068), held in the auth user's `app_metadata.roles`, the part of an account its
 * owner cannot change: `moderator` decides reports and sanctions, `finance` handles payouts, `admin` both and the
 * roles. They are granted and revoked only from the command line (`npm run operators`), each change one transaction
 * with its row in the audit trail.
 *
 * Where they are kept is a `RoleStore`: the embedded auth's `auth_users.app_metadata` (SQL in the transaction), or
 * hosted GoTrue's through its admin API, called inside the transaction so that a refusal there rolls the trail back.
 */

export const isOperatorRole = (value: unknown): value is OperatorRole => OPERATOR_ROLES.includes(value as OperatorRole);

export class OperatorError extends DomainError<404 | 409, "user_not_found" | "already_granted" | "not_granted"> {}

/** The roles an app_metadata names, known ones only, in OPERATOR_ROLES' order. */
export function rolesOf(appMetadata: Record<string, unknown> | undefined): OperatorRole[] {
  const listed = Array.isArray(appMetadata?.roles) ? (appMetadata.roles as unknown[]) : [];
  return OPERATOR_ROLES.filter((role) => listed.includes(role));
}

/** Where the roles are kept: the account's app_metadata, read and merged (a key set to null is removed). */
export interface RoleStore {
  read(trx: Database, userId: string): Promise<Record<string, unknown> | undefined>;
  write(trx: Database, userId: string, patch: Record<string, unknown>): Promise<void>;
}

/** The embedded auth's own column, in the caller's transaction. */
export const embeddedRoleStore: RoleStore = {
  read: (trx, userId) => readAppMetadata(trx, userId),
  write: (trx, userId, patch) => mergeAppMetadata(trx, { userId, patch }),
};

/** Hosted GoTrue's, through its admin API (the transaction is the caller's trail's, not GoTrue's). */
export function hostedRoleStore(hosted: HostedAppMetadata): RoleStore {
  return { read: (_trx, userId) => hosted.read(userId), write: (_trx, userId, patch) => hosted.write(userId, patch) };
}

/** A user's roles; none for an account the store does not know. */
export async function readRoles(db: Database, { store, userId }: { store: RoleStore; userId: string }): Promise<OperatorRole[]> {
  return rolesOf(await store.read(db, userId));
}

export interface RoleChange {
  store: RoleStore;
  operator: Operator;
  email: string;
  role: OperatorRole;
  reason: string;
}

/**
 * Grants (`grant`) or revokes a role of the member with this address, in one transaction: the member's row locked (two
 * changes of one person take turns), the roles written, and the change's row in the audit trail with the roles before
 * and after. A role the member has already (or, revoking, has not) is refused and leaves no row.
 */
async function changeRole(db: Database, { store, operator, email, role, reason }: RoleChange, grant: boolean) {
  return db.transaction().execute(async (trx) => {
    const member = await trx
      .selectFrom("users")
      .select(["id", "display_name", "email"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
      .where("deleted_at", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (!member) throw new OperatorError(404, "user_not_found");
    const before = rolesOf(await store.read(trx, member.id));
    if (before.includes(role) === grant) throw new OperatorError(409, grant ? "already_granted" : "not_granted");
    const after = grant ? OPERATOR_ROLES.filter((known) => known === role || before.includes(known)) : before.filter((known) => known !== role);
    await recordOperatorAction(trx, {
      operator,
      kind: grant ? "role_granted" : "role_revoked",
      target: { type: "user", id: member.id },
      reason,
      details: { role, before, after },
    });
    // Last, so that GoTrue (hosted) is asked only once everything else of the transaction has been written.
    await store.write(trx, member.id, { roles: after.length > 0 ? after : null });
    return { user: { id: member.id, displayName: member.display_name, email: member.email }, roles: after };
  });
}

export const grantRole = (db: Database, change: RoleChange) => changeRole(db, change, true);
export const revokeRole = (db: Database, change: RoleChange) => changeRole(db, change, false);

/**
 * The operators and their roles, by display name. The embedded auth answers from its column; with hosted Supabase the
 * candidates are the members the trail shows a role was ever granted to (the command is the only way roles are
 * given), each read back from GoTrue.
 */
export async function listOperators(db: Database, { store, local }: { store: RoleStore; local: boolean }) {
  const members = db.selectFrom("users as u").select(["u.id", "u.display_name", "u.email"]).where("u.deleted_at", "is", null).orderBy("u.display_name").orderBy("u.id");
  const listed = local
    ? (
        await members
          .innerJoin("auth_users as a", "a.id", "u.id")
          .select("a.app_metadata")
          .where(sql<boolean>`jsonb_typeof(a.app_metadata -> 'roles') = 'array'`)
          .execute()
      ).map(({ app_metadata, ...member }) => ({ ...member, roles: rolesOf(app_metadata) }))
    : await Promise.all(
        (await members.where(sql<string>`u.id::text`, "in", db.selectFrom("operator_audit").select("target_id").where("kind", "=", "role_granted")).execute()).map(async (member) => ({
          ...member,
          roles: rolesOf(await store.read(db, member.id)),
        })),
      );
  return listed.filter((member) => member.roles.length > 0).map(({ id, display_name, email, roles }) => ({ id, displayName: display_name, email, roles }));
}
