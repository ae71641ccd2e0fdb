import { COIN_PACKAGES } from "~/lib/constants";
import { formatNumber } from "~/lib/format";

/** The coin packages with their prices, as the support and legal pages state them. */
export function CoinPackageList({ taxNote = false }: { taxNote?: boolean }) {
  return (
    <ul>
      {COIN_PACKAGES.map((pack) => (
        <li key={pack.id}>
          {pack.name}：{formatNumber(pack.price)}円{taxNote ? "（税込）" : ""}
        </li>
      ))}
    </ul>
  );
}
