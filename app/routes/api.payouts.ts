import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, parseOrThrow, payoutErrorResponse, readJson, requireApiUser, requireIdempotencyKey } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { payoutSchema } from "~/lib/validation/payout";
import { listPayouts, requestPayout } from "~/models/payouts.server";

/** GET /api/payouts → success, data.payouts: the caller's requests, newest first, account numbers masked. */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const payouts = await listPayouts({ db: context.db, sellerId: user.id });
  return apiOk({ data: { payouts } }, { headers: { "Cache-Control": "no-store" } });
}

/**
 * POST /api/payouts {coins, bankName, branchName, accountType, accountNumber, accountHolder} with an Idempotency-Key
 * header → data.payout (201 when requested, 200 when the key was seen before). Below 1,000 coins or a bad field: 400;
 * more than the earned balance: 422 (purchased coins never count).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const idempotencyKey = requireIdempotencyKey(request);
  const input = parseOrThrow(payoutSchema, await readJson(request));
  try {
    const { payout, isNew } = await requestPayout({ db: context.db, sellerId: user.id, input, idempotencyKey });
    return apiOk({ data: { payout } }, { status: isNew ? 201 : 200 });
  } catch (error) {
    return payoutErrorResponse(error);
  }
}
