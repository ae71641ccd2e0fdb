import { z } from "zod";
import { hashPassword, verifyPassword } from "../../app/infra/auth/passwords";
import { CONFIRMATION_LINK_TTL_MS, PASSWORD_INPUT_MAX } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { issueOneTimeToken } from "../../app/models/auth/one-time-tokens.server";
import { hasVerifiedFactor } from "../../app/models/auth/factors.server";
import { revokeOtherSessions, setSessionMethod } from "../../app/models/auth/sessions.server";
import { findUserIdByEmail, readPasswordHash, readUser, readUserMetadata, setPasswordHash, setUserMetadata } from "../../app/models/auth/users.server";
import { enqueueMail } from "../../app/models/mail-outbox.server";
import { recordRateLimitEvent } from "../../app/models/rate-limit.server";
import { signedIn } from "./auth";
import type { AuthApi, Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { json, parseParams, refusal } from "./helpers";
import { currentPasswordLimit, emailChangeBuckets, emailChangeLimit } from "./limits";
import { emailParam, mergedMetadataParam, metadataPatchParam, newPasswordParam, optionalTextParam, textParam } from "./params";
import { DUMMY_HASH } from "./password";
import { goTrueUser } from "./user-json";

/** The signed-in user (GET /user) and its update (PUT /user), as GoTrue's user.go. */

export const userGet: Handler = async (api, req) => json(await goTrueUser(api.db, signedIn(req).user));

/**
 * The fields of `updateUser` the embedded auth acts on; supabase-js sends the PKCE pair with every update (null unless
 * the address changes, whose link is our own and needs none). Anything else is refused in GoTrue's shape: an update
 * must never answer 200 while storing nothing.
 */
const UPDATE_FIELDS = new Set(["email", "password", "current_password", "data", "code_challenge", "code_challenge_method"]);

/** The first field of the body, in its order, that the update does not act on and is not null. */
function refuseUnsupportedFields(body: Record<string, unknown>, ctx: z.RefinementCtx) {
  const field = Object.entries(body).find(([name, value]) => !UPDATE_FIELDS.has(name) && value !== null)?.[0];
  if (field === undefined) return;
  const refused = field === "phone" ? refusal(422, ErrorCode.PhoneProviderDisabled, messages.auth.phoneUnsupported) : refusal(422, ErrorCode.ValidationFailed, messages.auth.unsupportedField(field));
  ctx.addIssue({ code: z.ZodIssueCode.custom, ...refused });
}

/**
 * PUT /user's body: no field it does not act on, then each field as given, a field of another type as if absent.
 * What a field must be is checked later, in the order that decides which refusal an update with several gets.
 */
export const userUpdateParams = z
  .custom<Record<string, unknown>>()
  .superRefine(refuseUnsupportedFields)
  .pipe(
    z.object({
      email: optionalTextParam,
      password: optionalTextParam,
      current_password: textParam,
      data: z.unknown().transform((value) => (value === null ? undefined : value)),
    }),
  );

const updatePasswordParam = newPasswordParam(ErrorCode.WeakPassword);

/**
 * `updateUser` (PUT /user): a new password, with the current one unless the session came from a recovery link,
 * ends every other session; a new address is confirmed from itself, and the old one is told.
 */
export const userUpdate: Handler<z.output<typeof userUpdateParams>> = async (api, req, params) => {
  const { claims, user } = signedIn(req);
  const { db, clock } = api;
  // Everything that can refuse the update is checked before anything is written: a refusal changes nothing (but
  // count a wrong current password, as a failed sign-in).
  await requireAal2ForCredentials(api, user, params);
  const newEmail = params.email !== undefined ? await checkEmailChange(api, user, params.email) : undefined;
  const data = params.data;
  if (data !== undefined) mergeMetadata((await readUserMetadata(db, user.id)).user_metadata, data);
  if (params.password !== undefined) {
    const password = parseParams(updatePasswordParam, params.password);
    const current = await readPasswordHash(db, user.id);
    if (user.method !== "recovery") {
      const given = params.current_password;
      if (!given) throw new AuthError(400, ErrorCode.CurrentPasswordRequired, messages.auth.currentPasswordRequired);
      const buckets = await currentPasswordLimit(api, user.email);
      if (given.length > PASSWORD_INPUT_MAX || !(await verifyPassword(given, current.password_hash ?? DUMMY_HASH))) {
        await recordRateLimitEvent({ db, buckets });
        throw new AuthError(400, ErrorCode.CurrentPasswordMismatch, messages.auth.currentPasswordWrong);
      }
    }
    if (current.password_hash && (await verifyPassword(password, current.password_hash))) {
      throw new AuthError(422, ErrorCode.SamePassword, messages.auth.samePassword);
    }
    const passwordHash = await hashPassword(password);
    await db.transaction().execute(async (trx) => {
      await setPasswordHash(trx, { userId: user.id, passwordHash, now: clock() });
      await revokeOtherSessions(trx, { userId: user.id, keepSessionId: claims.session_id, reason: "password_changed" });
      // A recovery session may set the password once; after that it is an ordinary session.
      await setSessionMethod(trx, { sessionId: claims.session_id, method: "password" });
    });
    await api.onSessionsEnded(user.id, { keepSessionId: claims.session_id });
  }
  let extra: Record<string, unknown> = {};
  if (newEmail !== undefined) {
    await db.transaction().execute(async (trx) => {
      await recordRateLimitEvent({ db: trx, buckets: emailChangeBuckets(user.id) });
      await issueOneTimeToken(trx, { userId: user.id, type: "email_change", email: newEmail, mailKind: "email_change_confirm", mailTo: newEmail, now: clock(), ttlMs: CONFIRMATION_LINK_TTL_MS });
      await enqueueMail(trx, [{ kind: "email_change_notice", to: user.email, userId: user.id, data: { newEmail } }]);
    });
    extra = { new_email: newEmail, email_change_sent_at: clock().toISOString() };
  }
  if (data !== undefined) {
    await db.transaction().execute(async (trx) => {
      const row = await readUserMetadata(trx, user.id, { lock: true });
      await setUserMetadata(trx, { userId: user.id, metadata: mergeMetadata(row.user_metadata, data), now: clock() });
    });
  }
  return json(await goTrueUser(db, await readUser(db, user.id), extra));
};

/**
 * As GoTrue's user.go: with a verified factor, an aal1 session may change the metadata but not the password or the
 * address (401 `insufficient_aal`), so a stolen password alone cannot take the account over.
 */
async function requireAal2ForCredentials(api: AuthApi, user: { id: string; email: string; aal: string }, params: { email?: string; password?: string }) {
  const changesPassword = params.password !== undefined && params.password !== "";
  const changesEmail = params.email !== undefined && params.email !== "" && params.email.normalize("NFC").trim().toLowerCase() !== user.email;
  if (!changesPassword && !changesEmail) return;
  if (user.aal !== "aal2" && (await hasVerifiedFactor(api.db, user.id))) {
    throw new AuthError(401, ErrorCode.InsufficientAAL, messages.auth.mfaInsufficientAal);
  }
}

/** A new address for `updateUser({ email })`, or the refusal: not an address, the same one, too many changes, or taken. */
async function checkEmailChange(api: AuthApi, user: { id: string; email: string }, value: string) {
  const email = parseParams(emailParam, value);
  if (email === user.email) throw new AuthError(422, ErrorCode.SameEmail, messages.auth.sameEmail);
  await emailChangeLimit(api, user.id);
  if (await findUserIdByEmail(api.db, email)) throw new AuthError(422, ErrorCode.EmailExists, messages.auth.userExists);
  return email;
}

/**
 * `updateUser({ data })` merged into user_metadata as GoTrue does, key by key at the top level, a null value removing
 * its key; the result is held to the size and text rules of sign-up's `data`, or refused.
 */
function mergeMetadata(current: Record<string, unknown>, data: unknown) {
  const patch = parseParams(metadataPatchParam, data);
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return parseParams(mergedMetadataParam, merged);
}
