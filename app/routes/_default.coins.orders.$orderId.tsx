import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { CoinIcon } from "~/components/coin-icon";
import { useRealtimeEvent } from "~/components/realtime-provider";
import { requireProfile } from "~/http/auth.server";
import { formatNumber } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { RealtimeEvent } from "~/lib/realtime-events";
import { findPackage, getOrder } from "~/models/coin-orders.server";
import { getBalance } from "~/models/coins.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.order.status === "paid" ? "購入完了" : "お支払いの確認");

const paramsSchema = z.object({ orderId: z.string().regex(/^[1-9]\d{0,14}$/).transform(Number) });

/** Where a purchase ends: the coins added and the new balance (or, with Stripe, the wait for its confirmation). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { orderId } = parseParams(paramsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const order = await getOrder({ db: context.db, userId: user.id, orderId });
  // Someone else's order is as unknown as one that does not exist.
  if (!order) throw new Response(null, { status: 404 });
  const { totalBalance } = await getBalance(context.db, user.id);
  return { order, packageName: findPackage(order.packageId)?.name ?? `${formatNumber(order.coins)}コイン`, totalBalance };
}

const PENDING_POLL_MS = 3_000;

export default function OrderResultPage() {
  const { order, packageName, totalBalance } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const pending = order.status === "pending";
  // Stripe confirms by webhook: the page follows the live event, and asks again now and then in case it missed it.
  useRealtimeEvent(RealtimeEvent.coinsPurchaseCompleted, () => pending && revalidator.revalidate());
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => revalidator.revalidate(), PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [pending, revalidator]);

  return (
    <section aria-labelledby="order-title" className="mx-auto max-w-xl space-y-5 text-center">
      {order.status === "paid" ? (
        <>
          <CoinIcon size={56} />
          <h1 id="order-title" className="text-2xl font-bold">
            購入が完了しました
          </h1>
          <p className="text-lg">
            <strong>{packageName}</strong>を追加しました。
          </p>
          <p className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
            現在のコイン残高
            <strong className="ml-2 text-2xl" data-testid="result-balance">
              {formatNumber(totalBalance)}
            </strong>
            コイン
          </p>
        </>
      ) : pending ? (
        <>
          <h1 id="order-title" className="text-2xl font-bold">
            お支払いを確認しています
          </h1>
          <p role="status">決済の完了を確認しています。このままお待ちください。確認でき次第、コインが追加されます。</p>
          <p>
            <Link to={`/coins/orders/${order.id}`} className="text-brand-700 underline">
              最新の状態を表示する
            </Link>
          </p>
        </>
      ) : (
        <>
          <h1 id="order-title" className="text-2xl font-bold">
            お支払いが完了しませんでした
          </h1>
          <p>{order.status === "expired" ? "決済の有効期限が切れました。" : "決済に失敗しました。"}コインは追加されておらず、料金も請求されていません。</p>
          <p>
            <Link to={`/coins/checkout/${order.packageId}`} className="btn-primary">
              もう一度購入する
            </Link>
          </p>
        </>
      )}
      <p className="flex flex-wrap justify-center gap-4 text-sm">
        <Link to="/settings/coin-history" className="text-brand-700 underline">
          コイン履歴を見る
        </Link>
        <Link to="/" className="text-brand-700 underline">
          トップページへ
        </Link>
      </p>
    </section>
  );
}
