import type { z } from "zod";
import { requireAuthentication } from "./auth";
import type { AuthApi, AuthRequest, Handler, Limit } from "./context";
import { parseParams, readBody } from "./helpers";

/**
 * How a route of the embedded auth server runs (GoTrue's router.go with its middleware): for a route with
 * `session: true` the caller is authenticated first, then the body is parsed by the route's `params`, then its
 * rate limit is checked, then the handler answers. The routes themselves are in api.ts, in one table (ADR 062).
 */

export interface Route<Params = unknown> {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The path under /auth/v1; a `{name}` segment is a path parameter, which a route's own path always wins over. */
  path: string;
  /** Needs a live session (GoTrue's `requireAuthentication`). */
  session?: boolean;
  /** The JSON body's schema; without it the body is not read. */
  params?: z.ZodType<Params, z.ZodTypeDef, unknown>;
  /** The route's rate limit, which may count by a field of the body. */
  limit?: Limit<Params>;
  handler: Handler<Params>;
}

/** A route of the table, its handler's parameters checked against its schema here and forgotten in the table. */
export const route = <Params = undefined>(spec: Route<Params>) => spec as unknown as Route<unknown>;

/** A grant of POST /token: a route chosen by `grant_type` rather than by its path. */
export type Grant = Omit<Route, "method" | "path">;
export const grant = <Params = undefined>(spec: Omit<Route<Params>, "method" | "path">) => spec as unknown as Grant;

/** The route for a method and a path under /auth/v1, with its path parameters; none for a path the table lacks. */
export function matchRoute(routes: readonly Route[], method: string, path: string) {
  const ownPaths = new Set(routes.filter((candidate) => !candidate.path.includes("{")).map((candidate) => candidate.path));
  for (const candidate of routes) {
    if (candidate.method !== method) continue;
    if (candidate.path === path) return { route: candidate, pathParams: {} };
    if (ownPaths.has(path)) continue;
    const pathParams = matchPattern(candidate.path, path);
    if (pathParams) return { route: candidate, pathParams };
  }
  return undefined;
}

/** `/user/identities/{identity_id}` against a path: each `{name}` takes one segment, which is not empty. */
function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  if (!pattern.includes("{")) return undefined;
  const expected = pattern.split("/");
  const actual = path.split("/");
  if (expected.length !== actual.length) return undefined;
  const pathParams: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index]!;
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (name && value !== "") pathParams[name] = value;
    else if (segment !== value) return undefined;
  }
  return pathParams;
}

/** A route's middleware, in order, then its handler. */
export async function runRoute(target: Omit<Route, "method" | "path">, api: AuthApi, req: AuthRequest) {
  if (target.session) req.session = await requireAuthentication(api, req);
  const params = target.params ? parseParams(target.params, await readBody(req.request)) : undefined;
  if (target.limit) await target.limit(api, req, params);
  return target.handler(api, req, params);
}
