import { redirect, type AppLoadContext } from "@remix-run/node";
import type { AuthUser } from "~/infra/auth/session";
import type { OperatorRole } from "~/lib/constants";
import { rolesAllow } from "~/lib/constants/desk";
import { notFoundMessage } from "~/lib/messages";
import type { Operator } from "~/models/operator-audit.server";
import { embeddedRoleStore, readRoles, rolesOf } from "~/models/operators.server";

/**
 * The operators' desk's guard (ADR 071). The desk does not exist for anyone else: a visitor signed out, a member
 * without a role, or an operator without the page's role gets the 404 of any unknown path. The roles are the auth
 * server's answer now (the embedded auth's column, or GoTrue's user), not the access token's claims, which keep a
 * revoked role for the token's hour (ADR 068). An operator must be signed in with the second step (aal2): a session
 * that still owes it is sent to the code page, and an operator without an authenticator app to the page that asks
 * to add one.
 */

/** An operator of the desk: the session, their roles, and who they are in the audit trail. */
export interface DeskOperator {
  user: AuthUser;
  roles: OperatorRole[];
  operator: Operator;
}

/** The desk's not-found: the same answer, status and text as a path no route claims (`_default.$.tsx`). */
export function deskNotFound(request: Request) {
  return new Response(notFoundMessage(new URL(request.url).pathname), { status: 404, statusText: "Not Found" });
}

/** The session's roles as the auth server holds them now. */
async function currentRoles(context: AppLoadContext, user: AuthUser): Promise<OperatorRole[]> {
  if (!context.config.SUPABASE_URL) return readRoles(context.db, { store: embeddedRoleStore, userId: user.id });
  // Hosted: GoTrue's user for this session's token (GET /user), its app_metadata as GoTrue has it now.
  const { data, error } = await context.auth.supabase().auth.getUser(user.accessToken);
  if (error && (error.status === undefined || error.status >= 500)) throw error;
  return data.user?.id === user.id ? rolesOf(data.user.app_metadata) : [];
}

/**
 * The caller, when they are an operator with one of `roles`, before any second-step check: the desk's pages go through
 * `requireOperator`; the page that asks an operator to add an authenticator app reads this one.
 */
export async function readOperator(request: Request, context: AppLoadContext, roles: readonly OperatorRole[]): Promise<DeskOperator> {
  const user = await context.auth.getSignIn();
  if (!user) throw deskNotFound(request);
  const held = await currentRoles(context, user);
  if (!rolesAllow(held, roles)) throw deskNotFound(request);
  return { user, roles: held, operator: { id: user.id, label: `desk:${user.email}` } };
}

/**
 * The guard of every desk loader and action: the operator, signed in with the second step, holding one of `roles`
 * (DESK_PAGES' lists). Anyone else a 404; an operator whose session owes its code is sent to /login/mfa and back here,
 * one without an authenticator app to /admin/two-step.
 */
export async function requireOperator(request: Request, context: AppLoadContext, roles: readonly OperatorRole[]): Promise<DeskOperator> {
  const desk = await readOperator(request, context, roles);
  if (desk.user.aal === "aal2") return desk;
  if (desk.user.secondStepPending) {
    const { pathname, search } = new URL(request.url);
    throw redirect(`/login/mfa?${new URLSearchParams({ redirectTo: request.method === "GET" ? pathname + search : pathname })}`);
  }
  throw redirect("/admin/two-step");
}

/** The action of a desk page that takes no posts: the 404 of an unknown path for everyone, as `_default.$.tsx` answers. */
export async function deskRefusesPosts({ request }: { request: Request }): Promise<never> {
  throw deskNotFound(request);
}
