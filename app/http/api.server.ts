import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import type { AuthUser } from "~/infra/auth/session";
import { bookingErrorMessage, chatErrorMessage, listingErrorMessage, coinErrorMessage, payoutErrorMessage, postErrorMessage, reportErrorMessage, reviewErrorMessage, subscriptionErrorMessage } from "~/lib/error-messages";
import { messages } from "~/lib/messages";
import { idempotencyKeySchema } from "~/lib/validation/fields";
import type { ChatRefusal } from "~/models/chat-sender.server";
import { ChatError } from "~/models/chat.server";
import { CoinOrderError } from "~/models/coin-orders.server";
import { CoinError } from "~/models/coins.server";
import { BookingError } from "~/models/bookings/error.server";
import { ListingError } from "~/models/listings.server";
import { PayoutError } from "~/models/payouts.server";
import { PostError } from "~/models/posts.server";
import { PushError } from "~/models/push.server";
import { ReportError } from "~/models/reports.server";
import { ReviewError } from "~/models/reviews.server";
import { SubscriptionError } from "~/models/subscriptions.server";
import { unstorableField } from "./unstorable.server";

/** The JSON envelope of docs/product.md#api: `{success:true, …}` or `{success:false, error:{code, message}}`. */
export function apiOk<T extends Record<string, unknown>>(body: T, init?: ResponseInit) {
  return jsonResponse({ success: true, ...body }, init);
}

/**
 * JSON with its Content-Length: the compression middleware then leaves small answers (most of the API's)
 * alone instead of spending CPU to gzip a few hundred bytes.
 */
function jsonResponse(body: unknown, init: ResponseInit = {}) {
  const text = JSON.stringify(body);
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Content-Length", String(Buffer.byteLength(text)));
  return new Response(text, { ...init, headers });
}

export function apiError(
  status: number,
  code: string,
  message: string,
  fieldErrors?: Record<string, string[] | undefined>,
) {
  return jsonResponse(
    { success: false, error: { code, message, ...(fieldErrors ? { fieldErrors } : {}) } },
    { status, headers: { "Cache-Control": "no-store" } },
  );
}

/** The caller of an /api route, or a thrown 401 in the envelope. */
export async function requireApiUser(context: AppLoadContext): Promise<AuthUser> {
  const user = await context.auth.getUser();
  if (user) return user;
  // Signed in with the password but not yet the authenticator app's code: GoTrue's code for it (ADR 064).
  if ((await context.auth.getSignIn())?.secondStepPending) throw apiError(403, "insufficient_aal", messages.auth.secondStepRequired);
  throw apiError(401, "unauthorized", messages.api.authRequired);
}

/**
 * Parses a JSON body; a body that is not JSON is a 400, not a 500. So is one with a string (anywhere, keys included)
 * the database cannot store, with the field it is under (./unstorable.server.ts): whatever a route's schema checks.
 */
export async function readJson(request: Request): Promise<unknown> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw apiError(400, "invalid_json", messages.validation.checkInput);
  }
  const field = unstorableField(body);
  if (field !== null) {
    throw apiError(400, "invalid_input", messages.validation.checkInput, field ? { [field]: [messages.validation.invalidCharacters] } : undefined);
  }
  return body;
}

/** Validates input with a shared schema; a mismatch is a 400 with Japanese field errors. */
export function parseOrThrow<Schema extends z.ZodTypeAny>(schema: Schema, input: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw apiError(400, "invalid_input", messages.validation.checkInput, parsed.error.flatten().fieldErrors as Record<string, string[]>);
  }
  return parsed.data;
}

/** A chat rule broken in a model becomes its status and Japanese message; anything else is rethrown. */
export function chatErrorResponse(error: unknown) {
  if (error instanceof ChatError) return apiError(error.status, error.code, chatErrorMessage(error.code));
  throw error;
}

/** A chat message's refusal (app/models/chat-sender.server.ts) as its status and Japanese message. */
export function chatRefusalResponse(refusal: ChatRefusal) {
  return apiError(refusal.status, refusal.code, chatErrorMessage(refusal.code));
}

/** A ledger or order rule broken in a model becomes its status and Japanese message; anything else is rethrown. */
export function coinErrorResponse(error: unknown) {
  if (error instanceof CoinError || error instanceof CoinOrderError) return apiError(error.status, error.code, coinErrorMessage(error.code));
  throw error;
}

/** A booking or ledger rule broken in a model becomes its status and Japanese message; anything else is rethrown. */
export function bookingErrorResponse(error: unknown) {
  if (error instanceof BookingError) return apiError(error.status, error.code, bookingErrorMessage(error.code, error.reason));
  return coinErrorResponse(error);
}

/** A listing rule broken in a model becomes its status and Japanese message; anything else is rethrown. */
export function listingErrorResponse(error: unknown) {
  if (error instanceof ListingError) return apiError(error.status, error.code, listingErrorMessage(error.code));
  throw error;
}

/** The Idempotency-Key header a request that spends coins must carry (docs/product.md#coins), or a thrown 400. */
export function requireIdempotencyKey(request: Request) {
  const key = idempotencyKeySchema.safeParse(request.headers.get("Idempotency-Key") ?? undefined);
  if (!key.success) throw apiError(400, "idempotency_key_required", messages.coins.idempotencyKeyRequired);
  return key.data;
}

/** A review rule (or the ledger under a tip) broken in a model becomes its status and Japanese message. */
export function reviewErrorResponse(error: unknown) {
  if (error instanceof ReviewError) return apiError(error.status, error.code, reviewErrorMessage(error.code));
  return coinErrorResponse(error);
}

/** A post rule broken in a model becomes its status and Japanese message; anything else is rethrown. */
export function postErrorResponse(error: unknown) {
  if (error instanceof PostError) return apiError(error.status, error.code, postErrorMessage(error.code));
  throw error;
}

/** A subscription rule (or the ledger under a payment) broken in a model becomes its status and Japanese message. */
export function subscriptionErrorResponse(error: unknown) {
  if (error instanceof SubscriptionError) return apiError(error.status, error.code, subscriptionErrorMessage(error.code));
  return coinErrorResponse(error);
}

/** A payout rule (or the ledger under it: too few earned coins) broken in a model becomes its status and Japanese message. */
export function payoutErrorResponse(error: unknown) {
  if (error instanceof PayoutError || error instanceof CoinError) return apiError(error.status, error.code, payoutErrorMessage(error.code));
  throw error;
}

/** A refused report becomes its status and Japanese message; anything else is rethrown. */
export function reportErrorResponse(error: unknown) {
  if (error instanceof ReportError) return apiError(error.status, error.code, reportErrorMessage(error.code));
  throw error;
}

/** A refused push subscription (or someone else's) becomes its status and Japanese message; anything else is rethrown. */
export function pushErrorResponse(error: unknown) {
  if (error instanceof PushError) {
    return apiError(error.status, error.code, error.code === "invalid_subscription" ? messages.push.invalidSubscription : messages.push.subscriptionNotFound);
  }
  throw error;
}
