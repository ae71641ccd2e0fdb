import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CoinPackageChoices } from "~/components/coin-packages";
import { swallowed } from "~/http/log.server";
import { formatNumber } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { getBalance } from "~/models/coins.server";

export const meta: MetaFunction = () => pageMeta("コインを購入", "GamerMatchのコインパッケージと価格（税込）の一覧です。");

/** The coin purchase dialog as a page: where the header's balance leads before (or without) JavaScript. */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await context.auth.getUser();
  const balance = user ? await getBalance(context.db, user.id).then((b) => b.totalBalance, swallowed("coin balance", 0)) : null;
  return { balance };
}

export default function CoinsPage() {
  const { balance } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="coins-title" className="mx-auto max-w-2xl space-y-5">
      <h1 id="coins-title" className="text-2xl font-bold">
        コインを購入
      </h1>
      {balance !== null ? (
        <p>
          現在の残高：<strong>{formatNumber(balance)}コイン</strong>
        </p>
      ) : null}
      <CoinPackageChoices />
      <p className="text-sm text-slate-700">
        価格はすべて税込です。購入したコインの返金・換金はできません。
        <Link to="/transaction-act" className="ml-1 text-brand-700 underline">
          特定商取引法に基づく表記
        </Link>
      </p>
    </section>
  );
}
