import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { BuyCoinsLink } from "~/components/coin-purchase";
import { DetailRow } from "~/components/detail-row";
import { Avatar } from "~/components/presence";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { swallowed } from "~/http/log.server";
import { redirectWithToast } from "~/http/toast.server";
import { SUBSCRIPTION_PERIOD_MS } from "~/lib/constants";
import { subscriptionErrorMessage } from "~/lib/error-messages";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { formatDateTime } from "~/lib/time";
import { idempotencyKeySchema, uuidParam } from "~/lib/validation/fields";
import { subscribeFormSchema } from "~/lib/validation/subscription";
import { CoinError, getBalance } from "~/models/coins.server";
import { getPlan, subscribe, SubscriptionError, subscriptionTo } from "~/models/subscriptions.server";
import { getProfile } from "~/models/user.server";

const paramsSchema = z.object({ uid: uuidParam });

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data ? `${data.profile.displayName}さんをサブスク` : "サブスク");

/**
 * The confirmation before coins are spent on a subscription (docs/product.md#coins): the price, the period and the new expiry,
 * the balance before and after; a plain form whose idempotency key lives in this page's URL (made on the first visit),
 * so a double click, the back button or a retry pays once.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { uid } = parseParams(paramsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const profile = await getProfile({ db: context.db, userId: uid });
  if (!profile) throw new Response(null, { status: 404 });
  if (uid === user.id) throw redirect("/settings/store/subscription");
  const url = new URL(request.url);
  const key = idempotencyKeySchema.safeParse(url.searchParams.get("key") ?? undefined);
  if (!key.success) throw redirect(`${url.pathname}?${new URLSearchParams({ key: crypto.randomUUID() })}`);
  const now = new Date();
  const [plan, current, balance] = await Promise.all([
    getPlan({ db: context.db, sellerId: uid }),
    subscriptionTo({ db: context.db, subscriberId: user.id, subscribeeId: uid, now }),
    getBalance(context.db, user.id).then((b) => b.totalBalance, swallowed("coin balance", 0)),
  ]);
  const from = Math.max(current?.active ? Date.parse(current.expiresAt) : 0, now.getTime());
  return { profile, plan, current, balance, newExpiresAt: new Date(from + SUBSCRIPTION_PERIOD_MS).toISOString(), idempotencyKey: key.data };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { uid } = parseParams(paramsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const form = subscribeFormSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!form.success) return data({ error: messages.validation.checkInput, insufficient: false }, { status: 400 });
  try {
    const { subscription } = await subscribe({
      db: context.db,
      realtime: context.realtime,
      feePercent: context.config.PLATFORM_FEE_PERCENT,
      subscriberId: user.id,
      subscribeeId: uid,
      idempotencyKey: form.data.idempotencyKey,
    });
    throw await redirectWithToast(request, context.config, `/u/${uid}/posts`, { type: "success", title: messages.subscriptions.subscribed(formatDateTime(subscription.expiresAt)) });
  } catch (error) {
    if (error instanceof SubscriptionError || error instanceof CoinError) {
      return data({ error: subscriptionErrorMessage(error.code), insufficient: error.code === "insufficient_coins" }, { status: error.status });
    }
    throw error;
  }
}

export default function SubscribePage() {
  const { profile, plan, current, balance, newExpiresAt, idempotencyKey } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const submitting = useNavigation().state !== "idle";
  const renewing = current?.active ?? false;
  const short = plan ? balance < plan.monthlyPrice : false;
  return (
    <section aria-labelledby="subscribe-title" className="mx-auto max-w-xl space-y-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center gap-3">
        <Avatar name={profile.displayName} src={profile.avatarUrl} size="lg" />
        <h1 id="subscribe-title" className="text-xl font-bold">
          {profile.displayName}さんを{renewing ? "サブスク更新" : "サブスク"}
        </h1>
      </div>
      {!plan ? (
        <p className="rounded-lg bg-slate-50 px-4 py-4 text-slate-700">{messages.subscriptions.noPlan}</p>
      ) : (
        <>
          {plan.description ? <p className="whitespace-pre-wrap break-words text-slate-700">{plan.description}</p> : null}
          <table className="w-full overflow-hidden rounded-xl bg-white text-sm ring-1 ring-slate-200">
            <caption className="sr-only">お申し込み内容</caption>
            <tbody className="divide-y divide-slate-100">
              <DetailRow label="月額">{formatNumber(plan.monthlyPrice)}コイン</DetailRow>
            <DetailRow label="期間">30日（{formatDateTime(newExpiresAt)}まで）</DetailRow>
            {renewing && current ? <DetailRow label="現在の期限">{formatDateTime(current.expiresAt)}（ここから30日延長）</DetailRow> : null}
            <DetailRow label="コイン残高">{formatNumber(balance)}コイン</DetailRow>
            <DetailRow label="お支払い後の残高">{short ? "—" : `${formatNumber(balance - plan.monthlyPrice)}コイン`}</DetailRow>
            </tbody>
          </table>
          <p className="text-sm text-slate-600">自動更新はされません。期限の3日前にお知らせします。サブスク限定の投稿は期限まで見られます。</p>
          {failure?.error || short ? (
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
              {failure?.error ?? messages.coins.insufficient}
              {failure?.insufficient || short ? <BuyCoinsLink className="ml-2 font-semibold underline">コインを購入</BuyCoinsLink> : null}
            </p>
          ) : null}
          <Form method="post">
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <button type="submit" className="btn-primary w-full" disabled={submitting || short}>
              {submitting ? "処理中…" : `${formatNumber(plan.monthlyPrice)}コインで${renewing ? "更新する" : "サブスクする"}`}
            </button>
          </Form>
        </>
      )}
      <p>
        <Link to={`/u/${profile.uid}`} className="text-sm text-slate-700 underline">
          プロフィールに戻る
        </Link>
      </p>
    </section>
  );
}
