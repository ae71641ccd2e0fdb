import { createHash } from "node:crypto";
import type { z } from "zod";
import { unstorableField } from "../../app/http/unstorable.server";
import { messages } from "../../app/lib/messages";
import { AuthError, ErrorCode } from "./errors";

/**
 * What the embedded auth server's handlers share, as GoTrue's helpers.go: their answers, reading a body by its schema
 * with GoTrue's refusals, and the hash a handed-out secret is kept as (ADR 062).
 */

/** A JSON answer, never stored by a cache: sessions and users are in these bodies. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });

/** A redirect of the browser (the OAuth flow), never stored by a cache either. */
export const redirect = (location: string) => new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });

/** How the server keeps a secret it handed out (a refresh token, an OAuth state or auth code): only its hash. */
export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * A JSON object body; anything else (not JSON, `null`, an array, a string) reads as an empty one. A body with text the
 * database cannot hold anywhere in it (a NUL or a lone surrogate, in a key or a value, under a field the route reads or
 * not) is a 400, as the app's request readers answer (ADR 054): GoTrue would take it and fail at the query.
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const body: unknown = await request.json().catch(() => null);
  if (unstorableField(body) !== null) throw new AuthError(400, ErrorCode.ValidationFailed, messages.validation.invalidCharacters);
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** The refusal a failed check of a request's schema answers with, carried in its zod issue's `params`. */
interface Refusal {
  status: number;
  errorCode: ErrorCode;
}

/**
 * A zod check's failure in GoTrue's terms: pass it as the second argument of `.refine(…)`. A schema's checks are
 * made in the order of its fields, and the first that fails is the answer, so a schema lists its fields in the
 * order the refusals are to be given.
 */
export const refusal = (status: number, errorCode: ErrorCode, message: string) => ({ message, params: { status, errorCode } satisfies Refusal });

/**
 * `value` parsed by `schema`, or its first refusal as an `AuthError` (GoTrue's `retrieveRequestParams`). Every check
 * of these schemas carries its refusal; one without (a bug) is a 400 `validation_failed` with zod's message.
 */
export function parseParams<Output>(schema: z.ZodType<Output, z.ZodTypeDef, unknown>, value: unknown): Output {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const refused = issue.code === "custom" ? (issue.params as Refusal | undefined) : undefined;
  throw new AuthError(refused?.status ?? 400, refused?.errorCode ?? ErrorCode.ValidationFailed, issue.message);
}
