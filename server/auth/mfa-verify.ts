import { z } from "zod";
import { matchTotpStep } from "../../app/infra/auth/totp";
import { MFA_CHALLENGE_TTL_MS } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { deleteChallenge, findFactorChallenge, markChallengeVerified } from "../../app/models/auth/challenges.server";
import { acceptFactorStep, deleteUnverifiedFactors, findOwnedFactor } from "../../app/models/auth/factors.server";
import { supersedeSessionTokens } from "../../app/models/auth/refresh-tokens.server";
import { raiseSessionToAal2, revokeSessionsBelowAal2 } from "../../app/models/auth/sessions.server";
import { readUser } from "../../app/models/auth/users.server";
import { signedIn } from "./auth";
import type { Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { json } from "./helpers";
import { mfaVerifyLimit } from "./limits";
import { UUID } from "../../app/lib/validation/fields";
import { loadFactor } from "./mfa";
import { textParam } from "./params";
import { issueSession, refuseStopped } from "./session";

/** `mfa.verify`'s body: the challenge and the six digits from the authenticator app. */
export const verifyFactorParams = z.object({ challenge_id: textParam, code: textParam });

/**
 * `mfa.verify` (POST /factors/{factor_id}/verify), as GoTrue's verifyTOTPFactor with its order of refusals: the
 * caller's factor (404 `mfa_factor_not_found`), the rate limit (429), a code at all (400), the factor's challenge
 * (422 `mfa_factor_not_found`), not verified and from the address that asked for it (422 `mfa_ip_address_mismatch`),
 * not expired (422 `mfa_challenge_expired`, the challenge deleted), then the code (422 `mfa_verification_failed`),
 * whose 30-second step must not have been accepted before (beyond GoTrue: a replayed code is refused).
 *
 * Then, in one transaction with the factor locked (GoTrue's updateMFASessionAndClaims): the challenge and the factor
 * verified, the session raised to aal2 with `totp` in its `amr`, its refresh tokens superseded and a new one issued
 * (the aal1 token cannot carry the session on), the user's other sessions below aal2 ended, and the user's other
 * unverified factors deleted. The answer is a whole session, as a sign-in's.
 */
export const verifyFactor: Handler<z.output<typeof verifyFactorParams>> = async (api, req, { challenge_id: challengeId, code }) => {
  const { claims, user } = signedIn(req);
  const factor = await loadFactor(api, req, user.id);
  await mfaVerifyLimit(api, { clientIp: req.clientIp, factorId: factor.id });
  if (code === "") throw new AuthError(400, ErrorCode.ValidationFailed, messages.auth.mfaCodeRequired);
  const now = api.clock();
  const result = await api.db.transaction().execute(async (trx) => {
    const locked = await findOwnedFactor(trx, { userId: user.id, factorId: factor.id, lock: true });
    if (!locked) throw new AuthError(404, ErrorCode.MFAFactorNotFound, messages.auth.mfaFactorNotFound);
    const challenge = UUID.test(challengeId) ? await findFactorChallenge(trx, { factorId: factor.id, challengeId }) : undefined;
    if (!challenge) throw new AuthError(422, ErrorCode.MFAFactorNotFound, messages.auth.mfaFactorNotFound);
    if (challenge.verified_at || challenge.ip_address !== req.clientIp) {
      throw new AuthError(422, ErrorCode.MFAIPAddressMismatch, messages.auth.mfaIpAddressMismatch);
    }
    if (now.getTime() > challenge.created_at.getTime() + MFA_CHALLENGE_TTL_MS) {
      // Deleted as GoTrue does, so the refusal is answered after the transaction commits the deletion.
      await deleteChallenge(trx, challenge.id);
      return { refused: new AuthError(422, ErrorCode.MFAChallengeExpired, messages.auth.mfaChallengeExpired) };
    }
    const secret = api.secrets.open(locked.secret, user.id);
    const step = secret === null ? null : matchTotpStep({ secret, code, now });
    if (step === null || !(await acceptFactorStep(trx, { factorId: factor.id, step, now }))) {
      throw new AuthError(422, ErrorCode.MFAVerificationFailed, messages.auth.mfaVerificationFailed);
    }
    await refuseStopped(api, trx, user.id);
    await markChallengeVerified(trx, { challengeId: challenge.id, now });
    await raiseSessionToAal2(trx, { sessionId: claims.session_id, factorId: factor.id, now });
    await supersedeSessionTokens(trx, claims.session_id);
    const othersEnded = await revokeSessionsBelowAal2(trx, user.id);
    await deleteUnverifiedFactors(trx, user.id);
    const session = await issueSession(api, { user: await readUser(trx, user.id), sessionId: claims.session_id, issuer: req.issuer, parentId: null, executor: trx });
    return { session, othersEnded };
  });
  if ("refused" in result) throw result.refused;
  if (result.othersEnded) await api.onSessionsEnded(user.id, { keepSessionId: claims.session_id });
  return json(result.session);
};
