import { messages } from "../../app/lib/messages";
import { deleteIdentity as deleteIdentityRow, listIdentityIds } from "../../app/models/auth/identities.server";
import { lockUserHasPassword, touchUser } from "../../app/models/auth/users.server";
import { signedIn } from "./auth";
import type { Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { authorize } from "./external";
import { json } from "./helpers";
import { UUID } from "../../app/lib/validation/fields";

/** Identities of other providers, as GoTrue's identity.go: linking Discord from settings, and unlinking. */

/** `linkIdentity` (GET /user/identities/authorize): Discord's OAuth flow, for the signed-in account. */
export const linkIdentity: Handler = async (api, req) => authorize(api, req, signedIn(req).user.id);


/**
 * `unlinkIdentity` (DELETE /user/identities/{identity_id}), as GoTrue's identity.go: the caller's own identity goes,
 * with the servers it brought; refused when it is the account's last way to sign in (no password). Someone else's
 * is not found.
 */
export const deleteIdentity: Handler = async (api, req) => {
  const { user } = signedIn(req);
  const identityId = req.pathParams.identity_id!;
  if (identityId === user.id) throw new AuthError(422, ErrorCode.ValidationFailed, messages.auth.emailIdentityNotDeletable);
  if (!UUID.test(identityId)) throw new AuthError(404, ErrorCode.IdentityNotFound, messages.auth.identityNotFound);
  const outcome = await api.db.transaction().execute(async (trx) => {
    const account = await lockUserHasPassword(trx, user.id);
    const identities = await listIdentityIds(trx, user.id);
    if (!identities.some((identity) => identity.id === identityId)) return "not_found" as const;
    if (!account.has_password && identities.length === 1) return "last" as const;
    await deleteIdentityRow(trx, identityId);
    await touchUser(trx, { userId: user.id, now: api.clock() });
    return "deleted" as const;
  });
  if (outcome === "not_found") throw new AuthError(404, ErrorCode.IdentityNotFound, messages.auth.identityNotFound);
  if (outcome === "last") throw new AuthError(422, ErrorCode.SingleIdentityNotDeletable, messages.auth.lastSignInMethod);
  return json({});
};
