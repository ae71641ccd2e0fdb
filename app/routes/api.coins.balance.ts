import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUser } from "~/http/api.server";
import { getBalance } from "~/models/coins.server";

/** GET /api/coins/balance → totalBalance (docs/product.md#api), with purchased and earned beside it. */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  return apiOk({ ...(await getBalance(context.db, user.id)) }, { headers: { "Cache-Control": "no-store" } });
}
