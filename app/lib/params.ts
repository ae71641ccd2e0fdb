import type { Params } from "@remix-run/react";
import type { z } from "zod";
import { invalidRouteMessage, messages } from "./messages";

/**
 * Validates a route's params; when they do not fit, the route is a fatal 404
 * `Page Not Found: {path}` (docs/product.md#validation, #errors).
 */
export function parseParams<Schema extends z.ZodTypeAny>(
  schema: Schema,
  params: Params,
  request: Request,
): z.infer<Schema> {
  const result = schema.safeParse(params);
  if (!result.success) {
    const { pathname } = new URL(request.url);
    throw new Response(invalidRouteMessage(pathname), { status: 404, statusText: "Not Found" });
  }
  return result.data;
}

/** Validates a page's query string; one that does not fit is a 400 (never a database error). */
export function parseQuery<Schema extends z.ZodTypeAny>(schema: Schema, request: Request): z.infer<Schema> {
  const result = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!result.success) throw new Response(messages.validation.checkInput, { status: 400, statusText: "Bad Request" });
  return result.data;
}
