import { MFA_CHALLENGE_RATE_LIMIT, MFA_VERIFY_RATE_LIMIT, RECOVER_RATE_LIMIT, SIGN_IN_ACCOUNT_DELAY, SIGN_IN_RATE_LIMIT } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { sleep } from "../../app/lib/sleep";
import { countRateLimitEvents, recordRateLimitEvent } from "../../app/models/rate-limit.server";
import type { AuthApi, Limit } from "./context";
import { AuthError, ErrorCode } from "./errors";

/**
 * The embedded auth server's rate limits (GoTrue's limiterOpts), shared by every replica through the database
 * (app/models/rate-limit.server.ts). A limit counts; the handler records an event in the same buckets when the
 * request is one that counts (a failed sign-in, a mail sent).
 */

/**
 * Sign-in's buckets: the client address, the account from that address, and the account from anywhere. Failed
 * attempts are what a password guesser makes, so those are what count (docs/product.md#constants).
 */
export const signInBuckets = (email: string, clientIp: string) => [`sign-in:ip:${clientIp}`, `sign-in:account-ip:${email} ${clientIp}`, `sign-in:account:${email}`];

/**
 * The password grant's limit (ADR 013): an address that failed too often is stopped; the account itself only slows
 * down, so nobody can lock its owner out.
 */
export const signInLimit: Limit<{ email: string }> = async (api, { clientIp }, { email }) => {
  const [byAddress, byAccountAndAddress, byAccount] = await countRateLimitEvents({ db: api.db, buckets: signInBuckets(email, clientIp), windowMs: SIGN_IN_RATE_LIMIT.windowMs });
  if (byAddress! >= SIGN_IN_RATE_LIMIT.limit || byAccountAndAddress! >= SIGN_IN_RATE_LIMIT.limit) {
    throw new AuthError(429, ErrorCode.OverRequestRateLimit, messages.auth.rateLimited);
  }
  const waitMs = signInDelayMs(byAccount!);
  if (waitMs > 0) await sleep(waitMs);
};

/** How long an attempt on an account waits after it failed `failures` times in the window (from anywhere). */
export function signInDelayMs(failures: number) {
  const { afterFailures, baseMs, maxMs } = SIGN_IN_ACCOUNT_DELAY;
  if (failures < afterFailures) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(failures - afterFailures, 16));
}

/**
 * A wrong current password in `updateUser` counts as a failed sign-in of the account: a stolen session cannot guess
 * its way to the password. The bucket to record a wrong one in, after checking that it is not over the limit.
 */
export async function currentPasswordLimit(api: AuthApi, email: string) {
  const buckets = [`sign-in:account:${email}`];
  const [failures] = await countRateLimitEvents({ db: api.db, buckets, windowMs: SIGN_IN_RATE_LIMIT.windowMs });
  if (failures! >= SIGN_IN_RATE_LIMIT.limit) throw new AuthError(429, ErrorCode.OverRequestRateLimit, messages.auth.rateLimited);
  return buckets;
}

/** Recovery mail's buckets: per client address and per address asked for. */
export const recoverBuckets = (email: string, clientIp: string) => [`recover:ip:${clientIp}`, `recover:email:${email}`];

/** The same answer and the same limit whether the address has an account or not, so neither tells (ADR 027). */
export const recoverLimit: Limit<{ email: string }> = async (api, { clientIp }, { email }) => {
  const [byIp, byEmail] = await countRateLimitEvents({ db: api.db, buckets: recoverBuckets(email, clientIp), windowMs: RECOVER_RATE_LIMIT.windowMs });
  if (byIp! >= RECOVER_RATE_LIMIT.perIp || byEmail! >= RECOVER_RATE_LIMIT.perEmail) {
    throw new AuthError(429, ErrorCode.OverEmailSendRateLimit, messages.auth.mailRateLimited);
  }
};

/** The bucket of the mails confirming a new address of the account. */
export const emailChangeBuckets = (userId: string) => [`email-change:${userId}`];

/** A new address is mailed as often as a recovery link to one address. */
export async function emailChangeLimit(api: AuthApi, userId: string) {
  const [sent] = await countRateLimitEvents({ db: api.db, buckets: emailChangeBuckets(userId), windowMs: RECOVER_RATE_LIMIT.windowMs });
  if (sent! >= RECOVER_RATE_LIMIT.perEmail) throw new AuthError(429, ErrorCode.OverEmailSendRateLimit, messages.auth.mailRateLimited);
}

/**
 * A factor's challenges and verifications (GoTrue's FactorChallenge and FactorVerify limiters), per client address
 * and per factor (ADR 063). Every attempt counts, and is recorded before it is counted: two attempts at once both
 * see each other, so no more than the limit are ever let through, and six digits cannot be guessed. Checked once the
 * factor is known to be the caller's, so nobody can spend the limit of another user's factor.
 */
async function mfaLimit(api: AuthApi, kind: "verify" | "challenge", { clientIp, factorId }: { clientIp: string; factorId: string }) {
  const { perFactor, perIp, windowMs } = kind === "verify" ? MFA_VERIFY_RATE_LIMIT : MFA_CHALLENGE_RATE_LIMIT;
  const buckets = [`mfa-${kind}:ip:${clientIp}`, `mfa-${kind}:factor:${factorId}`];
  await recordRateLimitEvent({ db: api.db, buckets });
  const [byIp, byFactor] = await countRateLimitEvents({ db: api.db, buckets, windowMs });
  if (byIp! > perIp || byFactor! > perFactor) throw new AuthError(429, ErrorCode.OverRequestRateLimit, messages.auth.mfaRateLimited);
}

export const mfaVerifyLimit = (api: AuthApi, target: { clientIp: string; factorId: string }) => mfaLimit(api, "verify", target);
export const mfaChallengeLimit = (api: AuthApi, target: { clientIp: string; factorId: string }) => mfaLimit(api, "challenge", target);
