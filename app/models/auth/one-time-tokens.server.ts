import { createHash, randomBytes } from "node:crypto";
import type { Database, OneTimeTokenType } from "~/infra/db/tables";
import { enqueueMail } from "../mail-outbox.server";

/**
 * The secrets of mailed links (`auth_one_time_tokens`), as GoTrue's models/one_time_token.go keeps them: random,
 * mailed once, stored only as their hash, spent once. The queries only, in the executor given (ADR 062).
 */

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * A one-time link's secret for `type`, and the mail `mailKind` to `mailTo` that carries it, both in the caller's
 * transaction, so the mail exists exactly when the token does. Valid for `ttlMs` from `now`.
 */
export async function issueOneTimeToken(
  trx: Database,
  { userId, type, email, mailKind, mailTo, now, ttlMs }: { userId: string; type: OneTimeTokenType; email: string; mailKind: string; mailTo: string; now: Date; ttlMs: number },
) {
  const token = randomBytes(32).toString("base64url");
  await trx
    .insertInto("auth_one_time_tokens")
    .values({ token_hash: sha256(token), user_id: userId, type, email, created_at: now, expires_at: new Date(now.getTime() + ttlMs) })
    .execute();
  await enqueueMail(trx, [{ kind: mailKind, to: mailTo, userId, data: { token, ...(type === "email_change" ? { newEmail: email } : {}) } }]);
}

/** The token of a followed link (`token_hash` is the link's secret), locked, with whether its account left. */
export async function lockOneTimeToken(trx: Database, secret: string) {
  return trx
    .selectFrom("auth_one_time_tokens as t")
    .innerJoin("auth_users as u", "u.id", "t.user_id")
    .select(["t.id", "t.user_id", "t.type", "t.email", "t.expires_at", "t.used_at", "u.deleted_at"])
    .where("t.token_hash", "=", sha256(secret))
    .forUpdate("t")
    .executeTakeFirst();
}

/** A link spent: it, and the others of its kind still unspent, so only the newest mail's link ever worked once. */
export async function spendOneTimeTokens(trx: Database, { tokenId, userId, type, now }: { tokenId: number; userId: string; type: OneTimeTokenType; now: Date }) {
  await trx.updateTable("auth_one_time_tokens").set({ used_at: now }).where("id", "=", tokenId).execute();
  await trx
    .updateTable("auth_one_time_tokens")
    .set({ used_at: now })
    .where("user_id", "=", userId)
    .where("type", "=", type)
    .where("used_at", "is", null)
    .execute();
}
