import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CoinSlider } from "~/components/coin-slider";
import { ErrorList, TextareaField } from "~/components/forms";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { SUBSCRIPTION_DESCRIPTION_MAX, SUBSCRIPTION_PRICE_MIN } from "~/lib/constants";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { subscriptionPlanSchema } from "~/lib/validation/subscription";
import { countSubscribers, getPlan, savePlan, withdrawPlan } from "~/models/subscriptions.server";

export const meta: MetaFunction = () => pageMeta("サブスクプラン");

/** `/settings/store/subscription`: the seller's monthly plan (slider steps from 100 coins) and what subscribers get. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const [plan, subscribers] = await Promise.all([getPlan({ db: context.db, sellerId: user.id }), countSubscribers({ db: context.db, subscribeeId: user.id })]);
  return { plan, subscribers, uid: user.id, rules: formRules(subscriptionPlanSchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const formData = await readFormData(request);
  const back = (title: string) => redirectWithToast(request, context.config, "/settings/store/subscription", { type: "success", title });
  if (formData.get("intent") === "withdraw") {
    await withdrawPlan({ db: context.db, sellerId: user.id });
    throw await back(messages.subscriptions.planWithdrawn);
  }
  const submission = parseWithZod(formData, { schema: subscriptionPlanSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await savePlan({ db: context.db, sellerId: user.id, input: submission.value });
  throw await back(messages.subscriptions.planSaved);
}

export default function SubscriptionPlanPage() {
  const { plan, subscribers, uid, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({
    id: "subscription-plan",
    lastResult,
    defaultValue: { monthlyPrice: String(plan?.monthlyPrice ?? 500), description: plan?.description ?? "" },
    rules,
  });
  return (
    <section aria-labelledby="plan-title" className="space-y-6">
      <div>
        <h1 id="plan-title" className="text-2xl font-bold">
          サブスクプラン
        </h1>
        <p className="mt-1 text-slate-600">
          月額のコインでサブスクしてくれた人だけが、あなたの「サブスク限定」の投稿を見られます。売上は手数料を差し引いてあなたの売上コインになります。
        </p>
      </div>
      <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm">
        {plan ? (
          <>
            現在のプラン：<strong>{formatNumber(plan.monthlyPrice)}コイン / 30日</strong>・サブスク中の人 <strong>{subscribers}人</strong>
          </>
        ) : (
          <>まだプランはありません。{subscribers > 0 ? `（期限まで見られる人が${subscribers}人います）` : ""}</>
        )}
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-6">
        <CoinSlider
          name={fields.monthlyPrice.name}
          label="月額（30日）"
          min={SUBSCRIPTION_PRICE_MIN}
          defaultValue={Number(fields.monthlyPrice.initialValue ?? plan?.monthlyPrice ?? 500)}
          errors={fields.monthlyPrice.errors}
        />
        <TextareaField meta={fields.description} label="サブスクで見られるもの（任意）" hint={`${SUBSCRIPTION_DESCRIPTION_MAX}文字以内`} rows={3} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary" disabled={submitting}>
          {plan ? "プランを変更する" : "プランを公開する"}
        </button>
      </Form>
      {plan ? (
        <Form method="post" className="border-t border-slate-200 pt-4">
          <input type="hidden" name="intent" value="withdraw" />
          <p className="text-sm text-slate-600">取り下げると新しくサブスクできなくなります。サブスク中の人は期限まで見られます。</p>
          <button type="submit" className="btn-secondary mt-2">
            プランを取り下げる
          </button>
        </Form>
      ) : null}
      <p className="flex flex-wrap gap-4 text-sm">
        <Link to={`/u/${uid}`} className="text-brand-700 underline">
          自分のプロフィールを見る
        </Link>
        <Link to="/settings/subscription" className="text-brand-700 underline">
          サブスクの管理
        </Link>
      </p>
    </section>
  );
}
