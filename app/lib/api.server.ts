import type { AppLoadContext } from "@remix-run/node";
import type { AuthUser } from "../../server/auth/session";
import { messages } from "./messages";

/** The JSON envelope of PRODUCT §8: `{success:true, …}` or `{success:false, error:{code, message}}`. */
export function apiOk<T extends Record<string, unknown>>(body: T, init?: ResponseInit) {
  return Response.json({ success: true, ...body }, init);
}

export function apiError(
  status: number,
  code: string,
  message: string,
  fieldErrors?: Record<string, string[] | undefined>,
) {
  return Response.json(
    { success: false, error: { code, message, ...(fieldErrors ? { fieldErrors } : {}) } },
    { status, headers: { "Cache-Control": "no-store" } },
  );
}

/** The caller of an /api route, or a thrown 401 in the envelope. */
export async function requireApiUser(context: AppLoadContext): Promise<AuthUser> {
  const user = await context.auth.getUser();
  if (!user) throw apiError(401, "unauthorized", messages.api.authRequired);
  return user;
}

/** Parses a JSON body; a body that is not JSON is a 400, not a 500. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw apiError(400, "invalid_json", messages.validation.checkInput);
  }
}
