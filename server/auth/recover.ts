import { z } from "zod";
import { RECOVERY_LINK_TTL_MS } from "../../app/lib/constants";
import { issueOneTimeToken } from "../../app/models/auth/one-time-tokens.server";
import { findLiveUserId } from "../../app/models/auth/users.server";
import { recordRateLimitEvent } from "../../app/models/rate-limit.server";
import type { Handler } from "./context";
import { json } from "./helpers";
import { recoverBuckets } from "./limits";
import { emailParam } from "./params";

export const recoverParams = z.object({ email: emailParam });

/**
 * `resetPasswordForEmail` (POST /recover), as GoTrue's recover.go: a one-time link valid for an hour goes to the
 * address if it has an account. The answer is the same either way, and so is the rate limit (`recoverLimit`, per
 * address and per client address, checked before this), so neither tells whether the address is registered.
 */
export const recover: Handler<z.output<typeof recoverParams>> = async (api, { clientIp }, { email }) => {
  await api.db.transaction().execute(async (trx) => {
    await recordRateLimitEvent({ db: trx, buckets: recoverBuckets(email, clientIp) });
    const user = await findLiveUserId(trx, email);
    if (user) await issueOneTimeToken(trx, { userId: user.id, type: "recovery", email, mailKind: "recovery", mailTo: email, now: api.clock(), ttlMs: RECOVERY_LINK_TTL_MS });
  });
  return json({});
};
