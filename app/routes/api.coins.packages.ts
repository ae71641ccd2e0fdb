import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUser } from "~/http/api.server";
import { COIN_PACKAGES, discountPercent } from "~/lib/constants";

/** GET /api/coins/packages → data.packages: the seven packages with their discount (docs/product.md#api). */
export async function loader({ context }: LoaderFunctionArgs) {
  await requireApiUser(context);
  const packages = COIN_PACKAGES.map((pack) => ({ id: pack.id, name: pack.name, coins: pack.coins, price: pack.price, discountPercent: discountPercent(pack) }));
  return apiOk({ data: { packages } });
}
