import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { hashPassword } from "../../app/infra/auth/passwords";
import { CONFIRMATION_LINK_TTL_MS } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { issueOneTimeToken } from "../../app/models/auth/one-time-tokens.server";
import { insertPasswordUser, lockUnconfirmedUser } from "../../app/models/auth/users.server";
import type { AuthApi, Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { json, parseParams } from "./helpers";
import { newPasswordParam, type credentialsParams } from "./params";
import { startSession } from "./session";
import { toGoTrueUser, goTrueUser } from "./user-json";

/** `signUp` (POST /signup), as GoTrue's signup.go: an account with an address and a password. */

const signupPasswordParam = newPasswordParam(ErrorCode.ValidationFailed);

/** A new account and its first session; or, with AUTH_CONFIRM_EMAIL, the account waiting for its confirmation mail. */
export const signup: Handler<z.output<typeof credentialsParams>> = async (api, { issuer, device }, { email, password, data }) => {
  parseParams(signupPasswordParam, password);
  const passwordHash = await hashPassword(password);
  if (api.confirmEmail) return signupToConfirm(api, { email, passwordHash, data });
  const user = await insertPasswordUser(api.db, { email, passwordHash, data, confirmed: true });
  if (!user) throw new AuthError(422, ErrorCode.UserAlreadyExists, messages.auth.userExists);
  return json(await startSession(api, { userId: user.id, issuer, device, method: "signup" }));
};

/**
 * AUTH_CONFIRM_EMAIL: the account waits for its address to be confirmed; the answer is the user without a session,
 * as GoTrue's. An address that already has an account gets the same answer (GoTrue's obfuscated user), so sign-up
 * does not tell who is registered; one still unconfirmed gets its confirmation mail again.
 */
async function signupToConfirm(api: AuthApi, { email, passwordHash, data }: { email: string; passwordHash: string; data: object }) {
  const sentAt = api.clock().toISOString();
  return api.db.transaction().execute(async (trx) => {
    const user = (await insertPasswordUser(trx, { email, passwordHash, data, confirmed: false })) ?? (await lockUnconfirmedUser(trx, email));
    if (!user) {
      const now = new Date(sentAt);
      const stranger = { id: randomUUID(), email, user_metadata: {}, app_metadata: {}, created_at: now, updated_at: now, last_sign_in_at: null, email_confirmed_at: null, has_password: true };
      return json(toGoTrueUser(stranger, [], { confirmation_sent_at: sentAt }));
    }
    const now = api.clock();
    await issueOneTimeToken(trx, { userId: user.id, type: "signup", email, mailKind: "signup_confirm", mailTo: email, now, ttlMs: CONFIRMATION_LINK_TTL_MS });
    return json(await goTrueUser(trx, user, { confirmation_sent_at: sentAt }));
  });
}
