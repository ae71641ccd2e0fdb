import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/presence";
import { requireProfile } from "~/http/auth.server";
import { formatNumber } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { formatDateTime, isoString } from "~/lib/time";
import { countSubscribers, listSubscriptions } from "~/models/subscriptions.server";

export const meta: MetaFunction = () => pageMeta("サブスクの管理");

/** `/settings/subscription`: the caller's subscriptions (active and expired, expiry in Asia/Tokyo, renew) and their own subscribers. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const [subscriptions, subscribers] = await Promise.all([
    listSubscriptions({ db: context.db, subscriberId: user.id }),
    countSubscribers({ db: context.db, subscribeeId: user.id }),
  ]);
  return { subscriptions, subscribers };
}

export default function SubscriptionSettingsPage() {
  const { subscriptions, subscribers } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="subscriptions-title" className="space-y-6">
      <div>
        <h1 id="subscriptions-title" className="text-2xl font-bold">
          サブスクの管理
        </h1>
        <p className="mt-1 text-slate-600">自動更新はされません。続けたいときは期限が来る前に更新してください（期限から30日延長されます）。</p>
      </div>
      {subscriptions.length === 0 ? (
        <p className="rounded-xl bg-white p-8 text-center text-slate-600 ring-1 ring-slate-200">
          まだサブスクしている人はいません。気になるゲーマーのプロフィールから「サブスクする」を選べます。
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl bg-white ring-1 ring-slate-200" aria-label="サブスク一覧">
          {subscriptions.map((subscription) => (
            <li key={subscription.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
              <Link to={`/u/${subscription.subscribee.uid}`} className="flex min-w-0 flex-1 items-center gap-3">
                <Avatar name={subscription.subscribee.displayName} src={subscription.subscribee.avatar} />
                <span className="min-w-0">
                  <span className="block truncate font-semibold">{subscription.subscribee.displayName}</span>
                  <span className={`block text-sm ${subscription.active ? "text-slate-600" : "text-red-700"}`}>
                    {subscription.active ? "サブスク中・" : "期限切れ・"}
                    <time dateTime={isoString(subscription.expiresAt)}>{formatDateTime(subscription.expiresAt)}</time>
                    {subscription.active ? "まで" : "に終了"}
                  </span>
                </span>
              </Link>
              {subscription.monthlyPrice !== null ? (
                <Link to={`/u/${subscription.subscribee.uid}/subscribe`} className="btn-secondary">
                  {subscription.active ? "更新する" : "もう一度サブスクする"}（{formatNumber(subscription.monthlyPrice)}コイン）
                </Link>
              ) : (
                <span className="text-sm text-slate-500">プラン提供終了</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm">
        あなたをサブスクしている人：<strong>{subscribers}人</strong>
        <Link to="/settings/store/subscription" className="ml-3 text-brand-700 underline">
          サブスクプランの設定
        </Link>
      </p>
    </section>
  );
}
