import { createHash, randomInt } from "node:crypto";
import type { Database } from "~/infra/db/tables";
import { RECOVERY_CODE_COUNT, RECOVERY_CODE_RATE_LIMIT } from "~/lib/constants";
import { deleteUserFactors } from "./auth/factors.server";
import { enqueueMail } from "./mail-outbox.server";
import { recordOperatorAction, type Operator } from "./operator-audit.server";
import { countRateLimitEvents, recordRateLimitEvent } from "./rate-limit.server";

/**
 * 二段階認証 as the app keeps it beside the auth server's factors (ADR 064): the account's recovery codes, the flag
 * that says it owes a second step (what hosted mode reads), and the notice mails. Each change is one transaction with
 * its mail (the outbox), so a mail is sent exactly when its change happened.
 */

/** RFC 4648's base32 alphabet, lower case: no 0/1/8/9, so nothing reads as O, I, l or B. */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** A recovery code as shown: ten characters of base32 (50 random bits) in two groups, `abcde-fghij`. */
function newRecoveryCode() {
  let code = "";
  for (let i = 0; i < 10; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is stored of a code: the SHA-256 of its ten characters (the form's schema strips the hyphen and case). */
export const recoveryCodeHash = (code: string) => createHash("sha256").update(code.replace(/-/g, "").toLowerCase()).digest("hex");

type NoticeKind = "mfa_enrolled" | "mfa_removed" | "mfa_recovery_used" | "mfa_reset";

const notice = (kind: NoticeKind, user: { id: string; email: string }, data: Record<string, unknown> = {}) => ({ kind, to: user.email, userId: user.id, data });

/** The account's recovery codes replaced by a new set, inside `trx`: answers the codes as they are shown. */
async function replaceRecoveryCodes(trx: Database, userId: string) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await trx.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).execute();
  await trx
    .insertInto("mfa_recovery_codes")
    .values(codes.map((code) => ({ user_id: userId, code_hash: recoveryCodeHash(code) })))
    .execute();
  return codes;
}

/** The account owes no second step any more, inside `trx`: its codes go and the flag is cleared. */
async function clearSecondStep(trx: Database, userId: string) {
  const codes = await trx.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).executeTakeFirst();
  await trx.updateTable("users").set({ second_step_required: false }).where("id", "=", userId).execute();
  return Number(codes.numDeletedRows);
}

/**
 * An authenticator app was confirmed: a new set of recovery codes (the old set, if any, no longer works), the account
 * owes a second step from now on, and a mail says so. Answers the codes, which are shown once and never kept.
 */
export async function recordFactorConfirmed(db: Database, { user, friendlyName }: { user: { id: string; email: string }; friendlyName: string }) {
  return db.transaction().execute(async (trx) => {
    const codes = await replaceRecoveryCodes(trx, user.id);
    await trx.updateTable("users").set({ second_step_required: true }).where("id", "=", user.id).execute();
    await enqueueMail(trx, [notice("mfa_enrolled", user, { friendlyName })]);
    return codes;
  });
}

/** A new set of codes for an account that has an app (the old ones stop working); no mail: the account's owner asked. */
export async function renewRecoveryCodes(db: Database, userId: string) {
  return db.transaction().execute((trx) => replaceRecoveryCodes(trx, userId));
}

/**
 * An authenticator app was removed: a mail says so, and when it was the last one the account no longer owes a second
 * step and its recovery codes go.
 */
export async function recordFactorRemoved(db: Database, { user, friendlyName, lastOne }: { user: { id: string; email: string }; friendlyName: string; lastOne: boolean }) {
  await db.transaction().execute(async (trx) => {
    if (lastOne) await clearSecondStep(trx, user.id);
    await enqueueMail(trx, [notice("mfa_removed", user, { friendlyName })]);
  });
}

/** What a sign-in learnt of the account from the auth server (hosted mode's only source): whether it owes a second step. */
export async function syncSecondStepRequired(db: Database, { userId, required }: { userId: string; required: boolean }) {
  await db.updateTable("users").set({ second_step_required: required }).where("id", "=", userId).where("second_step_required", "<>", required).execute();
}

export async function countRecoveryCodesLeft(db: Database, userId: string) {
  const row = await db.selectFrom("mfa_recovery_codes").select((eb) => eb.fn.countAll<string>().as("n")).where("user_id", "=", userId).where("used_at", "is", null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Whether the account has tried too many recovery codes lately; a try counts before it is judged. Only a session
 * that got past the password can try one, so the account is the bucket that matters.
 */
export async function recoveryCodeAttemptAllowed(db: Database, userId: string) {
  const buckets = [`recovery-code:user:${userId}`];
  await recordRateLimitEvent({ db, buckets });
  const [tries] = await countRateLimitEvents({ db, buckets, windowMs: RECOVERY_CODE_RATE_LIMIT.windowMs });
  return tries! <= RECOVERY_CODE_RATE_LIMIT.perUser;
}

/**
 * Spends one recovery code and, in the same transaction, turns the second step off: the codes go, the account owes
 * no second step, a mail tells the owner, and `removeFactors` (the embedded auth's factors, in this transaction) runs.
 * False, with nothing changed, for a wrong or spent code; two tries of one code race for one row and one wins.
 */
export async function spendRecoveryCode(
  db: Database,
  { user, code, removeFactors }: { user: { id: string; email: string }; code: string; removeFactors: (trx: Database) => Promise<void> },
) {
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable("mfa_recovery_codes")
      .set({ used_at: new Date() })
      .where("user_id", "=", user.id)
      .where("code_hash", "=", recoveryCodeHash(code))
      .where("used_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!spent) return false;
    await removeFactors(trx);
    await clearSecondStep(trx, user.id);
    await enqueueMail(trx, [notice("mfa_recovery_used", user)]);
    return true;
  });
}

/**
 * An operator turns an account's second step off (a gamer who lost their phone and every recovery code, and proved
 * who they are through /inquiry: docs/operations.md#two-step-sign-in). In one transaction: the embedded auth's
 * factors (`local`; with hosted Supabase the operator removes GoTrue's in its dashboard), the codes and the flag go,
 * the owner is mailed, and the operators' audit trail gets its row with the reason. Answers what there was, or null
 * (nothing written) for an unknown account.
 */
export async function turnSecondStepOff(db: Database, { userId, local, operator, reason }: { userId: string; local: boolean; operator: Operator; reason: string }) {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "email", "second_step_required"]).where("id", "=", userId).forUpdate().executeTakeFirst();
    if (!user) return null;
    const factors = local ? await trx.selectFrom("auth_mfa_factors").select("id").where("user_id", "=", userId).execute() : [];
    if (local) await deleteUserFactors(trx, userId);
    const codesRemoved = await clearSecondStep(trx, userId);
    if (user.email && (factors.length > 0 || user.second_step_required)) await enqueueMail(trx, [notice("mfa_reset", { id: user.id, email: user.email })]);
    const result = { factorsRemoved: factors.length, codesRemoved, wasRequired: user.second_step_required };
    await recordOperatorAction(trx, { operator, kind: "two_step_off", target: { type: "user", id: userId }, reason, details: { ...result, local } });
    return result;
  });
}

/** What an operator sees of an account's second step before turning it off. */
export async function secondStepStatus(db: Database, { userId, local }: { userId: string; local: boolean }) {
  const user = await db.selectFrom("users").select(["id", "email", "display_name", "second_step_required"]).where("id", "=", userId).executeTakeFirst();
  if (!user) return null;
  const factors = local ? await db.selectFrom("auth_mfa_factors").select(["friendly_name", "status", "created_at"]).where("user_id", "=", userId).orderBy("created_at").execute() : null;
  return { ...user, factors, recoveryCodesLeft: await countRecoveryCodesLeft(db, userId) };
}
