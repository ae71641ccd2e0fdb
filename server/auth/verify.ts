import { z } from "zod";
import type { OneTimeTokenType } from "../../app/infra/db/tables";
import { messages } from "../../app/lib/messages";
import { lockOneTimeToken, spendOneTimeTokens } from "../../app/models/auth/one-time-tokens.server";
import { changeEmail, findOtherUserWithEmail, proveEmail } from "../../app/models/auth/users.server";
import type { Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { json, refusal } from "./helpers";
import { textParam } from "./params";
import { startSession } from "./session";

const isLinkType = (type: unknown): type is OneTimeTokenType => type === "recovery" || type === "signup" || type === "email_change";

/** The kind of link (supabase-js's `email` is sign-up's), then its secret, which a link never has empty or long. */
export const verifyParams = z.object({
  type: z
    .unknown()
    .transform((type) => (type === "email" ? "signup" : type))
    .refine(isLinkType, refusal(400, ErrorCode.ValidationFailed, messages.validation.checkInput)),
  token_hash: textParam.refine((tokenHash) => tokenHash.length > 0 && tokenHash.length <= 256, refusal(403, ErrorCode.OTPExpired, messages.auth.linkInvalid)),
});

/**
 * `verifyOtp({ type, token_hash })` (POST /verify), as GoTrue's verify.go: spends a mailed link's token once, before
 * it expires, and answers a session. recovery: a session that may set a new password without the old one; signup:
 * the address is confirmed; email_change: the new address becomes the account's.
 */
export const verify: Handler<z.output<typeof verifyParams>> = async (api, { issuer, device }, { type, token_hash: tokenHash }) => {
  const now = api.clock();
  const result = await api.db.transaction().execute(async (trx) => {
    const token = await lockOneTimeToken(trx, tokenHash);
    if (!token || token.type !== type || token.used_at || token.deleted_at || token.expires_at <= now) return null;
    // A link spent: the others of its kind are void, so only the newest mail's link ever worked once.
    await spendOneTimeTokens(trx, { tokenId: token.id, userId: token.user_id, type: token.type, now });
    if (type === "email_change") {
      if (await findOtherUserWithEmail(trx, { email: token.email, userId: token.user_id })) return "taken" as const;
      await changeEmail(trx, { userId: token.user_id, email: token.email, now });
    }
    // Following a link mailed to the address proves it, whatever the link was for.
    await proveEmail(trx, { userId: token.user_id, now });
    return startSession(api, { userId: token.user_id, issuer, device, method: type, executor: trx });
  });
  if (result === "taken") throw new AuthError(422, ErrorCode.EmailExists, messages.auth.userExists);
  if (!result) throw new AuthError(403, ErrorCode.OTPExpired, messages.auth.linkInvalid);
  return json(result);
};
