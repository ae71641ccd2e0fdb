import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { DetailRow } from "~/components/detail-row";
import { ErrorList, SelectField, TextField } from "~/components/forms";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { BANK_ACCOUNT_HOLDER_MAX, BANK_ACCOUNT_NUMBER_DIGITS, BANK_ACCOUNT_TYPES, BANK_BRANCH_MAX, BANK_NAME_MAX, PAYOUT_FEE_YEN, PAYOUT_MIN_COINS, YEN_PER_COIN } from "~/lib/constants";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { payoutErrorMessage } from "~/lib/error-messages";
import type { FormRules } from "~/lib/form-rules";
import { formRules } from "~/lib/form-rules.server";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { accountLine, accountTypeLabel, maskAccountNumber, payoutYen } from "~/lib/payouts";
import { formatDateTime } from "~/lib/time";
import { idempotencyKeySchema } from "~/lib/validation/fields";
import { payoutFormSchema, payoutSchema, type PayoutInput } from "~/lib/validation/payout";
import { CoinError, getBalance } from "~/models/coins.server";
import { listPayouts, PayoutError, requestPayout } from "~/models/payouts.server";

export const meta: MetaFunction = () => pageMeta("売上の振込申請");

const PATH = "/settings/store/transfer";

/**
 * Payouts (docs/product.md#data, #coins): the earned balance, the request form, a confirmation step, and the history. The form's
 * idempotency key lives in this page's URL, made on the first visit (as the coin checkout's), and rides through the
 * confirmation in a hidden field: the same request posted again (a double click, the back button) is one request.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const key = idempotencyKeySchema.safeParse(new URL(request.url).searchParams.get("key") ?? undefined);
  if (!key.success) throw redirect(`${PATH}?${new URLSearchParams({ key: crypto.randomUUID() })}`);
  const [balance, payouts] = await Promise.all([getBalance(context.db, user.id), listPayouts({ db: context.db, sellerId: user.id })]);
  return { earned: balance.earned, purchased: balance.purchased, payouts, idempotencyKey: key.data, rules: formRules(payoutSchema) };
}

/** What the confirmation step shows, and carries back in hidden fields. */
const confirmation = (input: PayoutInput, idempotencyKey: string) => ({
  input,
  idempotencyKey,
  yenAmount: payoutYen(input.coins),
  accountNumberMasked: maskAccountNumber(input.accountNumber),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const submission = parseWithZod(formData, { schema: payoutFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), confirm: null, error: null }, { status: 400 });
  const { idempotencyKey, ...input } = submission.value;
  // Back from the confirmation to the form, with what was entered.
  if (intent === "edit") return { result: submission.reply(), confirm: null, error: null };
  if (intent === "request") {
    try {
      await requestPayout({ db: context.db, sellerId: user.id, input, idempotencyKey });
    } catch (error) {
      if (!(error instanceof PayoutError || error instanceof CoinError)) throw error;
      return data({ result: null, confirm: confirmation(input, idempotencyKey), error: { message: payoutErrorMessage(error.code), code: error.code } }, { status: error.status });
    }
    throw await redirectWithToast(request, context.config, PATH, { type: "success", title: messages.payouts.requested });
  }
  // The confirmation step: more than the earned balance is said at once, on the form.
  const { earned } = await getBalance(context.db, user.id);
  if (input.coins > earned) return data({ result: submission.reply({ fieldErrors: { coins: [messages.payouts.insufficient] } }), confirm: null, error: null }, { status: 422 });
  return { result: null, confirm: confirmation(input, idempotencyKey), error: null };
}

const statusClass = { requested: "bg-amber-100 text-amber-800", held: "bg-orange-100 text-orange-800", paid: "bg-emerald-100 text-emerald-800", rejected: "bg-slate-200 text-slate-700" } as const;

export default function TransferPage() {
  const { earned, purchased, payouts, idempotencyKey, rules } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const submitting = useNavigation().state !== "idle";

  return (
    <section aria-labelledby="transfer-title" className="space-y-8">
      <div>
        <h1 id="transfer-title" className="text-2xl font-bold">
          売上の振込申請
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          チケットの売上・チップ・サブスクで受け取った売上コインを、銀行口座へ振り込むよう申請できます（1コイン＝{YEN_PER_COIN}円、振込手数料
          {formatNumber(PAYOUT_FEE_YEN)}円、{formatNumber(PAYOUT_MIN_COINS)}コインから）。
        </p>
      </div>

      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-lg bg-brand-50 p-4 ring-1 ring-brand-100">
          <dt className="font-semibold text-slate-700">振込申請できる売上コイン</dt>
          <dd className="mt-1 text-2xl font-bold" data-testid="earned-balance">
            {formatNumber(earned)}コイン
          </dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200">
          <dt className="font-semibold text-slate-700">購入したコイン</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-500">{formatNumber(purchased)}コイン</dd>
          <dd className="mt-1 text-xs text-slate-500">購入したコインは振込申請できません</dd>
        </div>
      </dl>

      {actionData?.confirm ? (
        <Confirmation confirm={actionData.confirm} error={actionData.error} earned={earned} submitting={submitting} />
      ) : (
        <RequestForm key={actionData?.result ? "returned" : "new"} lastResult={actionData?.result ?? undefined} idempotencyKey={idempotencyKey} earned={earned} submitting={submitting} rules={rules} />
      )}

      <section aria-labelledby="payout-history-title" className="space-y-3">
        <h2 id="payout-history-title" className="text-lg font-bold">
          申請履歴
        </h2>
        {payouts.length === 0 ? (
          <p className="rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">まだ振込申請はありません。</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">振込申請の履歴（新しい順）</caption>
              <thead className="border-b border-slate-200 text-xs text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">申請日時</th>
                  <th scope="col" className="py-2 pr-3 text-right">コイン</th>
                  <th scope="col" className="py-2 pr-3 text-right">振込金額</th>
                  <th scope="col" className="py-2 pr-3">振込先</th>
                  <th scope="col" className="py-2">状態</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {payouts.map((payout) => (
                  <tr key={payout.id}>
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(payout.createdAt)}</td>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{formatNumber(payout.coins)}コイン</td>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{formatNumber(payout.yenAmount)}円</td>
                    <td className="py-2 pr-3">{accountLine(payout)}</td>
                    <td className="py-2">
                      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${statusClass[payout.status]}`}>{messages.payouts.status[payout.status]}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <p className="text-sm">
        <Link to="/mypage/ticket-registration" className="text-brand-700 underline">
          チケット登録へ
        </Link>
        <span className="mx-2 text-slate-400">|</span>
        <Link to="/settings/coin-history" className="text-brand-700 underline">
          コイン履歴を見る
        </Link>
      </p>
    </section>
  );
}

function RequestForm({
  lastResult,
  idempotencyKey,
  earned,
  submitting,
  rules,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  idempotencyKey: string;
  earned: number;
  submitting: boolean;
  rules: FormRules;
}) {
  const [form, fields] = useConstraintForm({
    id: "payout-request",
    lastResult,
    rules,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <h2 className="text-lg font-bold">振込を申請する</h2>
      {earned < PAYOUT_MIN_COINS ? (
        <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-800">
          売上コインが{formatNumber(PAYOUT_MIN_COINS)}コイン以上になると申請できます。
        </p>
      ) : null}
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <TextField meta={fields.coins} label="申請するコイン" hint={`${formatNumber(PAYOUT_MIN_COINS)}コイン以上、売上コインの残高まで（1コイン＝${YEN_PER_COIN}円）`} />
      <TextField meta={fields.bankName} label="銀行名" hint={`${BANK_NAME_MAX}文字以内（例：ゲーマー銀行）`} />
      <TextField meta={fields.branchName} label="支店名" hint={`${BANK_BRANCH_MAX}文字以内（例：渋谷支店）`} />
      <SelectField meta={fields.accountType} label="口座種別" options={BANK_ACCOUNT_TYPES} />
      <TextField meta={fields.accountNumber} label="口座番号" hint={`${BANK_ACCOUNT_NUMBER_DIGITS}桁の数字（全角でも入力できます）`} />
      <TextField meta={fields.accountHolder} label="口座名義（カタカナ）" hint={`${BANK_ACCOUNT_HOLDER_MAX}文字以内（例：ゲーマー タロウ）。半角カタカナは全角に直して保存します`} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" name="intent" value="confirm" className="btn-primary" disabled={submitting}>
        確認へ進む
      </button>
    </Form>
  );
}

function Confirmation({
  confirm,
  error,
  earned,
  submitting,
}: {
  confirm: ReturnType<typeof confirmation>;
  error: { message: string; code: string } | null;
  earned: number;
  submitting: boolean;
}) {
  const { input } = confirm;
  const conflict = error?.code === "idempotency_conflict";
  return (
    <section aria-labelledby="payout-confirm-title" className="space-y-4">
      <h2 id="payout-confirm-title" className="text-lg font-bold">
        申請内容の確認
      </h2>
      <table className="w-full overflow-hidden rounded-xl bg-white text-sm ring-1 ring-slate-200">
        <caption className="sr-only">申請する振込</caption>
        <tbody className="divide-y divide-slate-100">
          <DetailRow label="申請するコイン">{formatNumber(input.coins)}コイン</DetailRow>
          <DetailRow label="振込手数料">{formatNumber(PAYOUT_FEE_YEN)}円</DetailRow>
          <DetailRow label="振込金額">
            <strong>{formatNumber(confirm.yenAmount)}円</strong>
          </DetailRow>
          <DetailRow label="振込先">
            {input.bankName} {input.branchName}
          </DetailRow>
          <DetailRow label="口座">
            {accountTypeLabel(input.accountType)} {confirm.accountNumberMasked}
          </DetailRow>
          <DetailRow label="口座名義">{input.accountHolder}</DetailRow>
          <DetailRow label="申請後の売上コイン">
            {formatNumber(earned)} → {formatNumber(Math.max(earned - input.coins, 0))}コイン
          </DetailRow>
        </tbody>
      </table>
      <p className="text-sm text-slate-700">申請するとコインは売上残高から差し引かれます。振込ができなかった場合（却下）は売上残高に戻ります。</p>
      {error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
          {error.message}
          {conflict ? (
            <a href={PATH} className="ml-2 font-semibold underline">
              振込申請を開き直す
            </a>
          ) : null}
        </p>
      ) : null}
      <Form method="post" className="flex flex-wrap items-center gap-3">
        {/* What was entered rides back with the key the form was rendered with: posted twice, it is one request. */}
        <input type="hidden" name="coins" value={input.coins} />
        <input type="hidden" name="bankName" value={input.bankName} />
        <input type="hidden" name="branchName" value={input.branchName} />
        <input type="hidden" name="accountType" value={input.accountType} />
        <input type="hidden" name="accountNumber" value={input.accountNumber} />
        <input type="hidden" name="accountHolder" value={input.accountHolder} />
        <input type="hidden" name="idempotencyKey" value={confirm.idempotencyKey} />
        <button type="submit" name="intent" value="request" className="btn-primary" disabled={submitting || conflict}>
          申請する
        </button>
        <button type="submit" name="intent" value="edit" className="btn-secondary" disabled={submitting}>
          入力内容を修正する
        </button>
      </Form>
    </section>
  );
}
