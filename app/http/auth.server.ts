import { redirect, type AppLoadContext } from "@remix-run/node";
import { safeRedirect } from "remix-utils/safe-redirect";
import { databaseUnavailable } from "~/infra/db/errors";
import { REDIRECT_TO_MAX } from "~/lib/constants";
import { assuranceOf } from "~/lib/auth-state";
import { messages } from "~/lib/messages";
import { syncSecondStepRequired } from "~/models/two-step.server";
import { getProfile } from "~/models/user.server";

/**
 * `/login?redirectTo=<the path asked for>`. A query string too long to come back to (a booking form's note, a
 * hostile URL) is dropped rather than echoed into a Location header that clients refuse to read.
 */
export function loginPath(request: Request) {
  return `/login?${new URLSearchParams({ redirectTo: pathBack(request) })}`;
}

/** The path asked for, to come back to after signing in (its query left out when too long). */
function pathBack(request: Request) {
  const { pathname, search } = new URL(request.url);
  const back = pathname + search;
  return back.length <= REDIRECT_TO_MAX ? back : pathname.slice(0, REDIRECT_TO_MAX);
}

/**
 * The guard named `auth` (docs/product.md#screens): the signed-in caller, or a redirect to the login page that
 * comes back here afterwards.
 */
export async function requireUser(request: Request, context: AppLoadContext) {
  const user = await context.auth.getUser();
  if (user) return user;
  // A session that owes its second step is sent to the code page, which comes back here afterwards (ADR 064).
  if ((await context.auth.getSignIn())?.secondStepPending) throw redirect(secondStepPath(pathBack(request)));
  throw redirect(loginPath(request));
}

/** `/login/mfa?redirectTo=<where to go next>`: the code page of a sign-in that owes its second step. */
function secondStepPath(redirectTo: string | null) {
  return redirectTo ? `/login/mfa?${new URLSearchParams({ redirectTo })}` : "/login/mfa";
}

/** `auth` plus a profile: a signed-in user without one is sent to set it up first (docs/product.md#what-it-is). */
export async function requireProfile(request: Request, context: AppLoadContext) {
  const user = await requireUser(request, context);
  const profile = await getProfile({ db: context.db, userId: user.id });
  if (!profile) {
    const { pathname, search } = new URL(request.url);
    throw redirect(`/mypage/gamer-edit?${new URLSearchParams({ redirectTo: pathname + search })}`);
  }
  return { user, profile };
}

/** Where to go after signing in: a same-site path only, else the hub. */
export const afterSignIn = (redirectTo: string | null | undefined) => safeRedirectPath(redirectTo, "/mypage");

const LOCAL_ORIGIN = "http://gamermatch.invalid";

/**
 * A path on this site to redirect to, or the fallback. The URL parser percent-encodes what a Location header cannot
 * carry (non-ASCII, control characters), and resolving it against a placeholder origin keeps it on this site.
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback: string) {
  const path = safeRedirect(to, fallback);
  if (path === fallback) return fallback;
  const url = new URL(path, LOCAL_ORIGIN);
  return url.origin === LOCAL_ORIGIN ? url.pathname + url.search + url.hash : fallback;
}

/** /login and /signup: a visitor who is already signed in goes where they were headed. */
export async function redirectIfSignedIn(request: Request, context: AppLoadContext) {
  const session = await context.auth.getSignIn();
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (session?.secondStepPending) throw redirect(secondStepPath(redirectTo));
  if (session) throw redirect(afterSignIn(redirectTo));
  return null;
}

/**
 * Where a sign-in goes once the auth server has answered it (the password form, Discord's callback): the code page
 * when the account has a confirmed authenticator app and the session is still aal1, else on. It also records what the
 * auth server said of the account's factors, which is what the app reads with hosted Supabase (ADR 064).
 */
export async function afterFirstStep(
  context: AppLoadContext,
  session: { access_token: string; user: { id: string; factors?: readonly { status: string }[] | null } },
  next: string,
) {
  const { currentLevel, nextLevel } = assuranceOf(session);
  await syncSecondStepRequired(context.db, { userId: session.user.id, required: nextLevel === "aal2" });
  return currentLevel === nextLevel ? next : secondStepPath(next);
}

/**
 * What a failed supabase-js sign-in or sign-up says in the form: the auth server's own (Japanese)
 * message for a refusal, a generic one when it failed; 429 stays 429.
 */
export function authFormError(error: { status?: number; message: string }) {
  // The auth server cannot reach its database: the page of a 503, as any page then, not a form error.
  if (error.status === 503) throw databaseUnavailable();
  const refused = !!error.status && error.status < 500;
  return { status: error.status === 429 ? 429 : 400, message: refused ? error.message : messages.auth.failed };
}

/**
 * What went wrong in a Discord sign-in, from the auth server's `error_code` (GoTrue's, or the embedded auth's): a
 * short kind that /login takes in its query string and says in Japanese. Only kinds travel in URLs, never the auth
 * server's description, so a crafted link cannot make the page say anything else.
 */
const DISCORD_ERROR_KINDS: Record<string, keyof typeof messages.auth.discordError> = {
  access_denied: "cancelled",
  flow_state_not_found: "expired",
  flow_state_expired: "expired",
  bad_code_verifier: "expired",
  bad_oauth_callback: "expired",
  bad_oauth_state: "expired",
  provider_error: "unavailable",
  server_error: "unavailable",
  unexpected_failure: "unavailable",
  email_exists: "email_taken",
  email_not_confirmed: "email_unverified",
  email_address_not_provided: "no_email",
  identity_already_exists: "linked_elsewhere",
  provider_already_linked: "already_linked",
  user_banned: "banned",
  user_not_found: "gone",
};

export const discordErrorKind = (errorCode: string) => DISCORD_ERROR_KINDS[errorCode] ?? "failed";

/** The message for a kind from `discordErrorKind`; anything else is the generic one. */
export function discordErrorMessage(kind: string | null) {
  const messagesByKind: Record<string, string> = messages.auth.discordError;
  return kind && Object.hasOwn(messagesByKind, kind) ? messagesByKind[kind]! : messages.auth.discordError.failed;
}
