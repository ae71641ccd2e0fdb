import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { coinTransactionLabel } from "~/components/coin-labels";
import { BuyCoinsLink } from "~/components/coin-purchase";
import { requireProfile } from "~/http/auth.server";
import { swallowed } from "~/http/log.server";
import { COIN_HISTORY_PAGE_SIZE } from "~/lib/constants";
import { formatNumber } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { formatDateTime, isoString } from "~/lib/time";
import { pageQuerySchema } from "~/lib/validation/fields";
import { getBalance, listTransactions } from "~/models/coins.server";

export const meta: MetaFunction = () => pageMeta("コイン履歴");

const pageOf = (request: Request) => parseQuery(pageQuerySchema, request).page;

/** Every change of the user's coins, newest first (docs/product.md#coins), with the balances it left. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const page = pageOf(request);
  const [history, balance] = await Promise.all([
    listTransactions(context.db, { userId: user.id, limit: COIN_HISTORY_PAGE_SIZE, offset: page * COIN_HISTORY_PAGE_SIZE }),
    getBalance(context.db, user.id).catch(swallowed("coin balance", { purchased: 0, earned: 0, totalBalance: 0 })),
  ]);
  return { ...history, balance, page };
}

export default function CoinHistoryPage() {
  const { transactions, hasMore, balance, page } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="coin-history-title" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="coin-history-title" className="text-2xl font-bold">
          コイン履歴
        </h1>
        <BuyCoinsLink className="btn-primary">コインを購入</BuyCoinsLink>
      </div>
      <dl className="grid grid-cols-3 gap-2 rounded-xl bg-white p-4 text-center ring-1 ring-slate-200">
        <div>
          <dt className="text-xs text-slate-600">残高</dt>
          <dd className="text-xl font-bold">{formatNumber(balance.totalBalance)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">購入コイン</dt>
          <dd className="text-lg font-semibold">{formatNumber(balance.purchased)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">売上コイン（出金可）</dt>
          <dd className="text-lg font-semibold">{formatNumber(balance.earned)}</dd>
        </div>
      </dl>
      {transactions.length === 0 ? (
        <p className="rounded-xl bg-white p-8 text-center text-slate-600 ring-1 ring-slate-200">
          {page > 0 ? "このページに履歴はありません。" : "コインの取引はまだありません。コインを購入すると、ここに履歴が表示されます。"}
        </p>
      ) : (
        // On a narrow phone the table may still scroll sideways: the region can then be focused and scrolled by keyboard.
        <div className="overflow-x-auto rounded-xl bg-white ring-1 ring-slate-200" tabIndex={0} role="region" aria-label="コインの取引の表">
          <table className="w-full text-sm">
            <caption className="sr-only">コインの取引（新しい順）</caption>
            <thead className="bg-slate-50 text-left text-slate-700">
              <tr>
                <th scope="col" className="px-2 py-2 sm:px-4 font-semibold">
                  日時
                </th>
                <th scope="col" className="px-2 py-2 sm:px-4 font-semibold">
                  内容
                </th>
                <th scope="col" className="px-2 py-2 sm:px-4 text-right font-semibold">
                  増減
                </th>
                <th scope="col" className="px-2 py-2 sm:px-4 text-right font-semibold">
                  残高
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {transactions.map((transaction) => (
                <tr key={transaction.id}>
                  <td className="px-2 py-3 sm:px-4 whitespace-nowrap">
                    <time dateTime={isoString(transaction.createdAt)}>{formatDateTime(transaction.createdAt)}</time>
                  </td>
                  <td className="px-2 py-3 sm:px-4">{coinTransactionLabel(transaction.kind)}</td>
                  <td className={`px-2 py-3 sm:px-4 text-right font-semibold whitespace-nowrap ${transaction.amount > 0 ? "text-emerald-700" : "text-red-700"}`}>
                    {transaction.amount > 0 ? "+" : "−"}
                    {formatNumber(Math.abs(transaction.amount))}
                  </td>
                  <td className="px-2 py-3 sm:px-4 text-right whitespace-nowrap">{formatNumber(transaction.balanceAfter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="ページ" className="flex justify-between text-sm">
        {page > 0 ? (
          <Link to={page > 1 ? `/settings/coin-history?page=${page - 1}` : "/settings/coin-history"} className="text-brand-700 underline">
            新しい履歴
          </Link>
        ) : (
          <span />
        )}
        {hasMore ? (
          <Link to={`/settings/coin-history?page=${page + 1}`} className="text-brand-700 underline">
            以前の履歴
          </Link>
        ) : null}
      </nav>
    </section>
  );
}
