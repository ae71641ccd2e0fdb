import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { DiscordError, type DiscordGuild, type DiscordUser } from "../../app/infra/discord";
import { log } from "../../app/infra/logger.server";
import { DISCORD_SCOPES, OAUTH_FLOW_KEEP_MS, OAUTH_FLOW_TTL_MS } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { claimFlowState, deleteExpiredFlowStates, findFlowStateByState, insertFlowState, setFlowAuthCode } from "../../app/models/auth/flow-states.server";
import { upsertIdentity } from "../../app/models/auth/identities.server";
import { replaceDiscordGuilds } from "../../app/models/discord-guilds.server";
import type { AuthApi, AuthRequest, Handler } from "./context";
import { AuthError, ErrorCode, OAuthError } from "./errors";
import { json, parseParams, redirect, refusal, sha256 } from "./helpers";
import { resolveAccount } from "./linking";
import { textParam } from "./params";
import { discordIdentityData } from "./provider-discord";
import { refuseStopped } from "./session";

/** Signing in with Discord by GoTrue's OAuth flow with PKCE, as its external.go (ADR 039). */

interface AuthorizeQuery {
  provider: "discord";
  code_challenge: string;
  code_challenge_method: string;
}

/** A PKCE challenge GoTrue takes: 43 to 128 characters of the verifier's alphabet, by `s256` or `plain`. */
const hasPkce = (query: AuthorizeQuery): query is AuthorizeQuery & { code_challenge_method: "s256" | "plain" } =>
  /^[A-Za-z0-9._~-]{43,128}$/.test(query.code_challenge) && (query.code_challenge_method === "s256" || query.code_challenge_method === "plain");

/** /authorize's query: the provider, then the app's PKCE challenge and its method. */
const authorizeParams = z
  .object({
    provider: z.unknown().refine((provider): provider is "discord" => provider === "discord", refusal(400, ErrorCode.ValidationFailed, messages.auth.providerDisabled)),
    code_challenge: textParam,
    code_challenge_method: textParam.transform((method) => method.toLowerCase()),
  })
  .refine(hasPkce, refusal(400, ErrorCode.ValidationFailed, messages.auth.pkceRequired));

/** `signInWithOAuth` (GET /authorize). */
export const externalProviderRedirect: Handler = async (api, req) => authorize(api, req, null);

/**
 * A flow state with the app's PKCE challenge and where to come back, then Discord's consent page with a state of its
 * own and PKCE toward Discord too; for a sign-in, or for linking Discord to `linkUserId` (identity.ts).
 * `skip_http_redirect` (linkIdentity's fetch) answers the URL as JSON instead of redirecting.
 */
export async function authorize(api: AuthApi, { url }: AuthRequest, linkUserId: string | null) {
  const { db, discord, siteUrl, clock } = api;
  if (!discord) throw new AuthError(400, ErrorCode.ValidationFailed, messages.auth.providerDisabled);
  const query = parseParams(authorizeParams, {
    provider: url.searchParams.get("provider"),
    code_challenge: url.searchParams.get("code_challenge"),
    code_challenge_method: url.searchParams.get("code_challenge_method"),
  });
  const redirectTo = allowedRedirect(api, url.searchParams.get("redirect_to"));
  const state = randomBytes(32).toString("base64url");
  const { url: consentUrl, codeVerifier } = await discord.startAuthorization({ redirectUri: `${siteUrl()}/auth/v1/callback`, state, scopes: DISCORD_SCOPES });
  const now = clock();
  await db.transaction().execute(async (trx) => {
    // Flows nobody finished are of no use a day later.
    await deleteExpiredFlowStates(trx, new Date(now.getTime() - OAUTH_FLOW_KEEP_MS));
    await insertFlowState(trx, {
      stateHash: sha256(state),
      provider: "discord",
      codeChallenge: query.code_challenge,
      codeChallengeMethod: query.code_challenge_method,
      redirectTo,
      providerCodeVerifier: codeVerifier,
      linkUserId,
      now,
      expiresAt: new Date(now.getTime() + OAUTH_FLOW_TTL_MS),
    });
  });
  if (url.searchParams.get("skip_http_redirect") === "true") return json({ url: consentUrl });
  return redirect(consentUrl);
}

/**
 * Where an OAuth sign-in may send the browser back: `redirect_to` when it is on SITE_URL's origin or under an entry
 * of AUTH_REDIRECT_URLS, else SITE_URL itself, as GoTrue does. Never a stranger's site (no open redirect).
 */
function allowedRedirect({ siteUrl, redirectUrls }: AuthApi, value: string | null) {
  const site = siteUrl();
  if (!value || value.length > 2048) return site;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return site;
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) return site;
  const allowed = [site, ...redirectUrls].some((entry) => {
    const prefix = new URL(entry);
    return url.origin === prefix.origin && (prefix.pathname === "/" || url.pathname === prefix.pathname || url.pathname.startsWith(prefix.pathname.replace(/\/?$/, "/")));
  });
  return allowed ? url.toString() : site;
}

/** Back to the app with GoTrue's `error`, `error_code` and `error_description`. */
function back(to: string, error: OAuthError, errorCode: ErrorCode | OAuthError, description: string) {
  const target = new URL(to);
  target.searchParams.set("error", error);
  target.searchParams.set("error_code", errorCode);
  target.searchParams.set("error_description", description);
  return redirect(target.toString());
}

/**
 * Discord sends the browser back here (GET /callback): the state is spent once, the code traded for who signed
 * in, the account found, linked or made (`resolveAccount`, linking.ts), and the browser goes back to `redirect_to`
 * with a one-time auth code. Anything that goes wrong goes back with `error`, `error_code` and `error_description`,
 * as GoTrue's does, having written nothing but the spent state.
 */
export const externalProviderCallback: Handler = async (api, { url }) => {
  const { db, discord, siteUrl, clock } = api;
  const state = url.searchParams.get("state") ?? "";
  const now = clock();
  const flow = state.length > 0 && state.length <= 256 ? await findFlowStateByState(db, sha256(state)) : undefined;
  if (!flow || !discord) return back(siteUrl(), OAuthError.InvalidRequest, ErrorCode.FlowStateNotFound, messages.auth.discordFlowExpired);
  const claimed = await claimFlowState(db, { flowId: flow.id, now });
  if (!claimed) {
    const expired = flow.expires_at <= now && !flow.state_used_at;
    return back(flow.redirect_to, OAuthError.InvalidRequest, expired ? ErrorCode.FlowStateExpired : ErrorCode.FlowStateNotFound, messages.auth.discordFlowExpired);
  }
  const refused = url.searchParams.get("error");
  if (refused === "access_denied") return back(flow.redirect_to, OAuthError.AccessDenied, OAuthError.AccessDenied, messages.auth.discordCancelled);
  if (refused) return back(flow.redirect_to, OAuthError.ServerError, ErrorCode.ProviderError, messages.auth.discordUnavailable);
  const code = url.searchParams.get("code") ?? "";
  if (!code || code.length > 512) return back(flow.redirect_to, OAuthError.InvalidRequest, ErrorCode.BadOAuthCallback, messages.auth.discordUnavailable);
  let signedInAs: { user: DiscordUser; guilds: DiscordGuild[] };
  try {
    signedInAs = await discord.signIn({ code, codeVerifier: flow.provider_code_verifier, redirectUri: `${siteUrl()}/auth/v1/callback` });
  } catch (error) {
    if (!(error instanceof DiscordError)) throw error;
    log.warn({ err: error }, "auth: Discord sign-in failed");
    return back(flow.redirect_to, OAuthError.ServerError, ErrorCode.ProviderError, messages.auth.discordUnavailable);
  }
  const authCode = randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      const { user, guilds } = signedInAs;
      const userId = await resolveAccount(trx, { user, linkUserId: flow.link_user_id, discord });
      await refuseStopped(api, trx, userId);
      const identity = await upsertIdentity(trx, { userId, provider: "discord", providerId: user.id, identityData: discordIdentityData(user, discord), email: user.email, now });
      // The servers as Discord lists them now: refreshed at every sign-in, so one left is gone from profiles.
      await replaceDiscordGuilds(trx, { userId, identityId: identity.id, guilds });
      await setFlowAuthCode(trx, { flowId: flow.id, authCodeHash: sha256(authCode), userId });
    });
  } catch (error) {
    if (error instanceof AuthError) return back(flow.redirect_to, OAuthError.AccessDenied, error.errorCode, error.message);
    throw error;
  }
  const target = new URL(flow.redirect_to);
  target.searchParams.set("code", authCode);
  return redirect(target.toString());
};
