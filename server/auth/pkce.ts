import { createHash } from "node:crypto";
import { z } from "zod";
import { messages } from "../../app/lib/messages";
import { lockFlowStateByAuthCode, spendAuthCode } from "../../app/models/auth/flow-states.server";
import type { Handler } from "./context";
import { AuthError, ErrorCode } from "./errors";
import { json, refusal, sha256 } from "./helpers";
import { textParam } from "./params";
import { startSession } from "./session";

/** The auth code from the OAuth callback and the verifier of the app's challenge, each at most 256 characters. */
export const pkceParams = z
  .object({ auth_code: textParam, code_verifier: textParam })
  .refine(
    ({ auth_code: authCode, code_verifier: verifier }) => !!authCode && !!verifier && authCode.length <= 256 && verifier.length <= 256,
    refusal(400, ErrorCode.ValidationFailed, messages.validation.checkInput),
  );

/**
 * `exchangeCodeForSession` (POST /token?grant_type=pkce), as GoTrue's pkce.go: the auth code from the callback, with
 * the verifier of the challenge the app sent to /authorize, is a session, once. A wrong verifier spends the code
 * too: whoever holds a stolen code gets one guess.
 */
export const pkceGrant: Handler<z.output<typeof pkceParams>> = async (api, { issuer, device }, { auth_code: authCode, code_verifier: verifier }) => {
  const now = api.clock();
  const result = await api.db.transaction().execute(async (trx) => {
    const flow = await lockFlowStateByAuthCode(trx, sha256(authCode));
    if (!flow || !flow.user_id || flow.auth_code_used_at) return "not_found" as const;
    await spendAuthCode(trx, { flowId: flow.id, now });
    if (flow.expires_at <= now) return "expired" as const;
    const challenge = flow.code_challenge_method === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
    if (challenge !== flow.code_challenge) return "mismatch" as const;
    return startSession(api, { userId: flow.user_id, issuer, device, method: flow.link_user_id ? "discord_link" : "discord", executor: trx });
  });
  if (result === "not_found") throw new AuthError(404, ErrorCode.FlowStateNotFound, messages.auth.oauthCodeInvalid);
  if (result === "expired") throw new AuthError(422, ErrorCode.FlowStateExpired, messages.auth.oauthCodeExpired);
  if (result === "mismatch") throw new AuthError(400, ErrorCode.BadCodeVerifier, messages.auth.codeVerifierMismatch);
  return json(result);
};
