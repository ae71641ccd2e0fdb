import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { CoinIcon } from "~/components/coin-icon";
import { DetailRow } from "~/components/detail-row";
import { requireProfile } from "~/http/auth.server";
import { coinUrls } from "~/http/coins.server";
import { readFormData } from "~/http/forms.server";
import { swallowed } from "~/http/log.server";
import { discountPercent } from "~/lib/constants";
import { coinErrorMessage } from "~/lib/error-messages";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { checkoutFormSchema } from "~/lib/validation/coins";
import { idempotencyKeySchema } from "~/lib/validation/fields";
import { CoinOrderError, findPackage, placeOrder } from "~/models/coin-orders.server";
import { getBalance } from "~/models/coins.server";

export const meta: MetaFunction = () => pageMeta("購入内容の確認");

/** One of the seven packages; any other id is the fatal 404 of docs/product.md#errors. */
const paramsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/)
    .transform((id) => findPackage(Number(id)))
    .refine((pack) => pack !== undefined),
});
const packageOf = (params: LoaderFunctionArgs["params"], request: Request) => parseParams(paramsSchema, params, request).id!;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const pack = packageOf(params, request);
  const { user } = await requireProfile(request, context);
  // The form's idempotency key lives in the page's URL, made by the first visit: the same form posted twice (a
  // double click, the back button, a retry) is the same order (docs/product.md#coins). A key made afresh on every render
  // broke the back button: a browser that loads the page again (no back/forward cache, and the POST to this URL
  // evicted it from the HTTP cache) got a new key, and posting it again bought the coins a second time.
  const key = idempotencyKeySchema.safeParse(new URL(request.url).searchParams.get("key") ?? undefined);
  if (!key.success) throw redirect(`/coins/checkout/${pack.id}?${new URLSearchParams({ key: crypto.randomUUID() })}`);
  const balance = await getBalance(context.db, user.id).then((b) => b.totalBalance, swallowed("coin balance", 0));
  return {
    pack: { ...pack, discountPercent: discountPercent(pack) },
    balance,
    provider: context.payments.provider,
    idempotencyKey: key.data,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const pack = packageOf(params, request);
  const { user } = await requireProfile(request, context);
  const form = checkoutFormSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!form.success) return data({ error: messages.coins.orderFailed }, { status: 400 });
  try {
    const { order } = await placeOrder({
      db: context.db,
      realtime: context.realtime,
      payments: context.payments,
      userId: user.id,
      packageId: pack.id,
      idempotencyKey: form.data.idempotencyKey,
      urls: coinUrls(request, pack.id),
    });
    // Stripe: on to its Checkout page (a full page load); the test provider has paid already.
    if (order.status === "pending" && order.checkoutUrl) return redirect(order.checkoutUrl);
    return redirect(`/coins/orders/${order.id}`);
  } catch (error) {
    if (error instanceof CoinOrderError) {
      return data({ error: error.code === "provider_failed" ? messages.coins.orderFailed : coinErrorMessage(error.code) }, { status: error.status });
    }
    throw error;
  }
}

export default function CheckoutPage() {
  const { pack, balance, provider, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const test = provider === "test";
  const method = test ? "テスト決済（実際の請求は発生しません）" : "クレジットカードほか（Stripe の決済画面）";

  return (
    <section aria-labelledby="checkout-title" className="mx-auto max-w-xl space-y-5">
      <h1 id="checkout-title" className="text-2xl font-bold">
        購入内容の確認
      </h1>
      {test ? (
        <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          <strong>テスト決済</strong>：この環境では支払いは行われず、コインはすぐに追加されます。
        </p>
      ) : null}
      <div className="flex items-center gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <CoinIcon size={36} />
        <div className="flex-1">
          <p className="text-lg font-bold">{pack.name}</p>
          {pack.discountPercent > 0 ? <p className="text-sm font-semibold text-red-700">{pack.discountPercent}% お得</p> : null}
        </div>
        <p className="text-xl font-bold">
          ¥{formatNumber(pack.price)}
          <span className="ml-1 text-xs font-normal text-slate-600">税込</span>
        </p>
      </div>

      {/* 特定商取引法 第12条の6: what the buyer confirms at the last step before paying. */}
      <table className="w-full overflow-hidden rounded-xl bg-white text-sm ring-1 ring-slate-200">
        <caption className="sr-only">ご購入内容</caption>
        <tbody className="divide-y divide-slate-100">
          <DetailRow label="商品">GamerMatch コイン（前払式支払手段）</DetailRow>
          <DetailRow label="数量">{formatNumber(pack.coins)}コイン</DetailRow>
          <DetailRow label="お支払い金額">¥{formatNumber(pack.price)}（税込）</DetailRow>
          <DetailRow label="お支払い方法">{method}</DetailRow>
          <DetailRow label="お支払い時期">{test ? "「購入する」を押した時点" : "Stripe の決済画面でお支払いを確定した時点"}</DetailRow>
          <DetailRow label="引き渡し時期">お支払いの完了後、ただちにコイン残高に追加されます</DetailRow>
          <DetailRow label="返品・キャンセル">購入後のコインの返金・換金・払い戻しはできません（法令で定める場合を除きます）</DetailRow>
          <DetailRow label="購入後の残高">
            {formatNumber(balance)} → <strong>{formatNumber(balance + pack.coins)}コイン</strong>
          </DetailRow>
        </tbody>
      </table>
      <p className="text-sm text-slate-700">
        ご購入の前に
        <Link to="/transaction-act" className="mx-1 text-brand-700 underline">
          特定商取引法に基づく表記
        </Link>
        と
        <Link to="/terms" className="mx-1 text-brand-700 underline">
          利用規約
        </Link>
        をご確認ください。
      </p>

      {actionData?.error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
          {actionData.error}
        </p>
      ) : null}
      <Form method="post" replace>
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <button type="submit" className="btn-primary w-full text-base" disabled={submitting}>
          {submitting ? "処理中…" : test ? `テスト決済で購入する（¥${formatNumber(pack.price)}）` : `¥${formatNumber(pack.price)} を支払う`}
        </button>
      </Form>
      <p className="text-center text-sm">
        <Link to="/coins" className="text-brand-700 underline">
          ほかのパッケージを選ぶ
        </Link>
      </p>
    </section>
  );
}
