import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, parseOrThrow, requireApiUser } from "~/http/api.server";
import { coinHistoryQuerySchema } from "~/lib/validation/coins";
import { listTransactions } from "~/models/coins.server";

/** GET /api/coins/history?limit&offset → data.transactions (newest first), data.hasMore. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const page = parseOrThrow(coinHistoryQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return apiOk({ data: await listTransactions(context.db, { userId: user.id, ...page }) }, { headers: { "Cache-Control": "no-store" } });
}
