import { Link } from "@remix-run/react";
import { COIN_PACKAGES, discountPercent } from "~/lib/constants";
import { formatNumber } from "~/lib/format";
import { CoinIcon } from "./coin-icon";

/** The seven packages: coins, price with tax, and the 「N% お得」 badge when there is a discount (docs/product.md#constants). */
export function CoinPackageChoices({ onChoose }: { onChoose?: (packageId: number) => void }) {
  return (
    <ul className="grid gap-2 sm:grid-cols-2" aria-label="コインパッケージ">
      {COIN_PACKAGES.map((pack) => {
        const discount = discountPercent(pack);
        return (
          <li key={pack.id}>
            <Link
              to={`/coins/checkout/${pack.id}`}
              onClick={
                onChoose
                  ? (event) => {
                      event.preventDefault();
                      onChoose(pack.id);
                    }
                  : undefined
              }
              className="flex min-h-14 items-center gap-3 rounded-xl bg-white px-4 py-3 ring-1 ring-slate-200 hover:bg-brand-50 hover:ring-brand-300 focus-visible:ring-2 focus-visible:ring-brand-600"
            >
              <CoinIcon size={24} />
              <span className="flex-1 font-bold">{pack.name}</span>
              {discount > 0 ? <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-bold text-red-700">{discount}% お得</span> : null}
              <span className="text-right font-semibold whitespace-nowrap">
                ¥{formatNumber(pack.price)}
                <span className="block text-xs font-normal text-slate-600">税込</span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
