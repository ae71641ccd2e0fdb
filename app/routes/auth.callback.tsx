import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { afterFirstStep, discordErrorKind, discordErrorMessage, safeRedirectPath } from "~/http/auth.server";
import { redirectWithToast } from "~/http/toast.server";
import { log } from "~/infra/logger.server";
import { messages } from "~/lib/messages";
import { createProfileFromDiscord } from "~/models/discord-profile.server";
import { getProfile } from "~/models/user.server";

/**
 * Where the auth server (hosted Supabase, or the embedded one) sends the browser back after Discord: trade the PKCE
 * code for a session, then go on. Linking from /settings comes back there with a toast; a first Discord sign-in gets
 * its profile from Discord and lands where a new account lands (the profile form); anyone else goes to `next`. A
 * refusal (consent refused, an address that is another account's …) goes to /login, which says why in Japanese.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const next = safeRedirectPath(url.searchParams.get("next"), "/");
  const linking = next === "/settings";
  const failed = async (kind: string): Promise<never> => {
    if (linking) throw await redirectWithToast(request, context.config, "/settings", { type: "error", title: discordErrorMessage(kind) });
    throw redirect(`/login?${new URLSearchParams({ error: kind })}`);
  };
  const errorCode = url.searchParams.get("error_code") ?? url.searchParams.get("error");
  if (errorCode) return failed(discordErrorKind(errorCode));
  const code = url.searchParams.get("code");
  if (!code) throw redirect(linking ? "/settings" : "/login");
  const { data, error } = await context.auth.supabase().auth.exchangeCodeForSession(code);
  if (error || !data.user) {
    // A refused code (spent, expired, another browser's) is the visitor's matter; the auth server failing is ours.
    if (error?.status && error.status < 500) log.info({ code: error.code }, "auth: code exchange refused");
    else log.warn({ err: error }, "auth: code exchange failed");
    return failed(discordErrorKind(error?.code ?? "failed"));
  }
  if (linking) throw await redirectWithToast(request, context.config, "/settings", { type: "success", title: messages.auth.discordLinked });
  const { user } = data;
  if (!(await getProfile({ db: context.db, userId: user.id }))) {
    if (user.app_metadata.provider === "discord") {
      await createProfileFromDiscord({
        db: context.db,
        realtime: context.realtime,
        storage: context.storage,
        userId: user.id,
        email: user.email ?? null,
        metadata: user.user_metadata,
        cdnUrl: context.config.DISCORD_CDN_URL,
        timeoutMs: context.config.DISCORD_TIMEOUT_MS,
        outbound: { allowLoopback: context.config.TEST_OUTBOUND_LOOPBACK },
      });
    }
    // A new account sets up (or, from Discord, checks) its profile first, as after sign-up.
    throw redirect(`/mypage/gamer-edit?${new URLSearchParams({ redirectTo: next })}`);
  }
  // An account with an authenticator app enters its code before it is signed in (ADR 064).
  throw redirect(data.session ? await afterFirstStep(context, data.session, next) : next);
}
