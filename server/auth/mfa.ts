import { z } from "zod";
import { generateTotpKey } from "../../app/infra/auth/totp";
import { MFA_CHALLENGE_TTL_MS, MFA_FACTOR_EXPIRY_MS, MFA_FRIENDLY_NAME_MAX, MFA_MAX_FACTORS } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { isStorableText, UUID } from "../../app/lib/validation/fields";
import { insertChallenge } from "../../app/models/auth/challenges.server";
import { deleteFactor, deleteStaleFactors, findOwnedFactor, insertFactor, listFactors, markFactorChallenged } from "../../app/models/auth/factors.server";
import { downgradeFactorSessions } from "../../app/models/auth/sessions.server";
import { lockUserDeleted } from "../../app/models/auth/users.server";
import { signedIn } from "./auth";
import type { AuthApi, AuthRequest, Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { json, refusal } from "./helpers";
import { mfaChallengeLimit } from "./limits";
import { textParam } from "./params";

/**
 * TOTP factors (two-step verification with an authenticator app), as GoTrue's mfa.go answers them (ADR 063):
 * enrolling a factor (POST /factors), a challenge of it (POST /factors/{factor_id}/challenge) and removing it
 * (DELETE /factors/{factor_id}) here; verifying a challenge's code in mfa-verify.ts. Every route is the caller's
 * own: another user's factor answers as a missing one.
 */


/** GoTrue's loadFactor: the caller's factor of the path, or a 404 (an id that is no UUID, or not the caller's). */
export async function loadFactor(api: AuthApi, req: AuthRequest, userId: string) {
  const factorId = req.pathParams.factor_id ?? "";
  if (!UUID.test(factorId)) throw new AuthError(404, ErrorCode.ValidationFailed, messages.auth.mfaFactorIdInvalid);
  const factor = await findOwnedFactor(api.db, { userId, factorId });
  if (!factor) throw new AuthError(404, ErrorCode.MFAFactorNotFound, messages.auth.mfaFactorNotFound);
  return factor;
}

/** A name or an issuer as sent: a single line of text the database can store, not too long. */
const labelParam = textParam.refine(
  (value) => value.length <= MFA_FRIENDLY_NAME_MAX && isStorableText(value),
  refusal(400, ErrorCode.ValidationFailed, messages.auth.mfaFriendlyNameTooLong(MFA_FRIENDLY_NAME_MAX)),
);

/** `mfa.enroll`'s body: only `totp` factors here (GoTrue's phone and WebAuthn ones are not served). */
export const enrollParams = z.object({
  factor_type: z.unknown().refine((type) => type === "totp", refusal(400, ErrorCode.ValidationFailed, messages.auth.mfaFactorTypeInvalid)),
  friendly_name: labelParam,
  issuer: labelParam,
});

/**
 * `mfa.enroll` (POST /factors), as GoTrue's enrollTOTPFactor: after GoTrue's validateFactors (stale enrolments
 * removed; then a name taken, too many factors, or a verified factor and an aal1 session refused) a new `unverified`
 * factor, its secret, its otpauth:// URI and the URI's QR code as SVG. The user's row is locked meanwhile, so two
 * enrolments at once cannot pass the count together.
 */
export const enrollFactor: Handler<z.output<typeof enrollParams>> = async (api, req, { friendly_name: friendlyName, issuer }) => {
  const { user } = signedIn(req);
  // GoTrue's default issuer is SITE_URL's host; without its port, which would read as the label's `issuer:` part.
  const key = await generateTotpKey({ issuer: issuer || new URL(api.siteUrl()).hostname, accountName: user.email });
  const factor = await api.db.transaction().execute(async (trx) => {
    await lockUserDeleted(trx, user.id);
    await deleteStaleFactors(trx, new Date(api.clock().getTime() - MFA_FACTOR_EXPIRY_MS));
    const factors = await listFactors(trx, user.id);
    if (factors.some((factor) => factor.friendly_name === friendlyName)) {
      throw new AuthError(422, ErrorCode.MFAFactorNameConflict, messages.auth.mfaFactorNameConflict);
    }
    if (factors.length >= MFA_MAX_FACTORS) throw new AuthError(422, ErrorCode.TooManyEnrolledMFAFactors, messages.auth.mfaTooManyFactors);
    if (factors.some((factor) => factor.status === "verified") && user.aal !== "aal2") {
      throw new AuthError(403, ErrorCode.InsufficientAAL, messages.auth.mfaInsufficientAal);
    }
    return insertFactor(trx, { userId: user.id, friendlyName, secret: api.secrets.seal(key.secret, user.id), now: api.clock() });
  });
  return json({ id: factor.id, type: "totp", friendly_name: factor.friendly_name, totp: { qr_code: key.qrCode, secret: key.secret, uri: key.uri } });
};

/**
 * `mfa.challenge` (POST /factors/{factor_id}/challenge), as GoTrue's challengeTOTPFactor: a challenge from the
 * caller's address, to be verified from it within five minutes. Limited per address and per factor.
 */
export const challengeFactor: Handler = async (api, req) => {
  const { user } = signedIn(req);
  const factor = await loadFactor(api, req, user.id);
  await mfaChallengeLimit(api, { clientIp: req.clientIp, factorId: factor.id });
  const now = api.clock();
  const challenge = await api.db.transaction().execute(async (trx) => {
    const created = await insertChallenge(trx, { factorId: factor.id, ipAddress: req.clientIp, now });
    await markFactorChallenged(trx, { factorId: factor.id, now });
    return created;
  });
  return json({ id: challenge.id, type: factor.factor_type, expires_at: Math.floor((now.getTime() + MFA_CHALLENGE_TTL_MS) / 1000) });
};

/**
 * `mfa.unenroll` (DELETE /factors/{factor_id}), as GoTrue's UnenrollFactor: a verified factor only from an aal2
 * session; the sessions it had raised to aal2 are aal1 again.
 */
export const unenrollFactor: Handler = async (api, req) => {
  const { user } = signedIn(req);
  const factor = await loadFactor(api, req, user.id);
  if (factor.status === "verified" && user.aal !== "aal2") throw new AuthError(422, ErrorCode.InsufficientAAL, messages.auth.mfaInsufficientAal);
  await api.db.transaction().execute(async (trx) => {
    await downgradeFactorSessions(trx, factor.id);
    await deleteFactor(trx, factor.id);
  });
  return json({ id: factor.id });
};
