import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList, TextField } from "~/components/forms";
import { authFormError, requireUser } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { getFormProps, useConstraintForm, type FieldMeta } from "~/lib/constraint-form";
import type { FormRules } from "~/lib/form-rules";
import { formRules } from "~/lib/form-rules.server";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { leaveAccountSchema } from "~/lib/validation/account";
import { AccountError, leaveAccount, leavingSummary, openMatterReasons } from "~/models/account.server";

export const meta: MetaFunction = () => pageMeta("退会");

/**
 * `/settings/account`: leaving the service (退会, docs/product.md#accounts, ADR 028). What stops it is said first; otherwise the coins
 * that would be forfeited, with the amount, then the password and a confirmation box. A plain form: it works without
 * JavaScript, and a refusal is answered on the page (400 bad input, 409 something open, 429 too many wrong passwords).
 * A user who never set up a profile may leave too, so the page asks for a sign-in only.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const [summary, identities] = await Promise.all([leavingSummary({ db: context.db, userId: user.id }), context.auth.supabase().auth.getUserIdentities()]);
  // An account made by Discord has no password to confirm with until it sets one (the e-mail identity comes with it).
  const hasPassword = !identities.data || identities.data.identities.some((identity) => identity.provider === "email");
  return { email: user.email, balance: summary.balance, reasons: openMatterReasons(summary.matters), rules: formRules(leaveAccountSchema), hasPassword };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: leaveAccountSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  const refuse = (status: number, formErrors: string[]) => data({ result: submission.reply({ formErrors, hideFields: ["password"] }) }, { status });

  // What is open is said before a password is spent on it; leaveAccount checks again with the rows locked.
  const { matters, canLeave } = await leavingSummary({ db: context.db, userId: user.id });
  if (!canLeave) return refuse(409, openMatterReasons(matters));

  // The password through the auth server (local or hosted), so a wrong one counts in the sign-in rate limit like any
  // other. On success supabase-js starts a session on this response; leaving revokes it with the others below.
  const supabase = context.auth.supabase();
  const { data: signedIn, error } = await supabase.auth.signInWithPassword({ email: user.email, password: submission.value.password });
  if (error || signedIn.user?.id !== user.id) {
    if (!error || error.code === "invalid_credentials") return refuse(400, [messages.account.wrongPassword]);
    const { status, message } = authFormError(error);
    return refuse(status, [message]);
  }

  try {
    await leaveAccount({ db: context.db, storage: context.storage, realtime: context.realtime, userId: user.id });
  } catch (failure) {
    if (!(failure instanceof AccountError)) throw failure;
    return refuse(failure.status, failure.matters ? openMatterReasons(failure.matters) : [messages.account.alreadyLeft]);
  }
  // Every session is revoked already; this clears this browser's session cookies, as /logout does.
  await supabase.auth.signOut({ scope: "local" });
  throw await redirectWithToast(request, context.config, "/", { type: "success", title: messages.account.left });
}

export default function LeaveAccountPage() {
  const { email, balance, reasons, rules, hasPassword } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="leave-title" className="space-y-6">
      <div>
        <h1 id="leave-title" className="text-2xl font-bold">
          退会
        </h1>
        <p className="mt-1 text-sm text-slate-600">{email} のアカウントを削除します。</p>
      </div>

      <section aria-labelledby="leave-effects-title" className="space-y-2 rounded-xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200">
        <h2 id="leave-effects-title" className="font-semibold">
          退会すると
        </h2>
        <ul className="list-disc space-y-1 pl-5 text-slate-700">
          <li>すべての端末でログアウトし、このアカウントにはログインできなくなります。</li>
          <li>プロフィール（アバター・自己紹介・ゲーム）は削除され、表示名は「{messages.account.leftUserName}」になります。</li>
          <li>投稿と画像は削除され、チケットは非公開になります。サブスク（登録中のものと、あなたのサブスクプラン）は終了します。</li>
          <li>予約・レビュー・チャットのメッセージ・コイン履歴は、相手と取引の記録として残ります（相手には「{messages.account.leftUserName}」と表示されます）。</li>
          <li>同じメールアドレスで新しいアカウントを登録できます。今のアカウントのデータは引き継がれません。</li>
        </ul>
      </section>

      {reasons.length > 0 ? (
        <section aria-labelledby="leave-blocked-title" className="space-y-3 rounded-xl bg-amber-50 p-4 text-sm ring-1 ring-amber-200">
          <h2 id="leave-blocked-title" className="font-semibold text-amber-950">
            現在は退会できません
          </h2>
          <ul className="list-disc space-y-1 pl-5 text-amber-950">
            {reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
          <p className="flex flex-wrap gap-3">
            <Link to="/settings/ticket-management" className="text-brand-700 underline">
              チケット管理へ
            </Link>
            <Link to="/settings/store/transfer" className="text-brand-700 underline">
              振込申請の状況へ
            </Link>
          </p>
        </section>
      ) : !hasPassword ? (
        <p className="rounded-xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200" data-testid="leave-needs-password">
          退会の確認にはパスワードが必要です。Discordで作成したアカウントはパスワードが未設定のため、先に
          <Link to="/forgot-password" className="text-brand-700 underline">
            パスワードの再設定メール
          </Link>
          からパスワードを設定してください。
        </p>
      ) : (
        <LeaveForm key={lastResult ? "returned" : "new"} lastResult={lastResult} rules={rules} balance={balance} submitting={submitting} />
      )}

      <p className="text-sm">
        <Link to="/settings" className="text-brand-700 underline">
          設定に戻る
        </Link>
      </p>
    </section>
  );
}

function LeaveForm({ lastResult, rules, balance, submitting }: { lastResult: SubmissionResult<string[]> | undefined; rules: FormRules; balance: number; submitting: boolean }) {
  const [form, fields] = useConstraintForm({ id: "leave-account", lastResult, rules });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="font-semibold">退会の手続き</h2>
      {balance > 0 ? (
        <p className="rounded-lg bg-red-50 px-4 py-3 text-sm font-semibold text-red-800" data-testid="forfeit-warning">
          {messages.account.forfeit(balance)}
        </p>
      ) : (
        <p className="text-sm text-slate-600">コインの残高はありません（{formatNumber(0)}コイン）。</p>
      )}
      <TextField meta={fields.password} label="現在のパスワード" type="password" autoComplete="current-password" />
      <ConfirmBox meta={fields.confirm} balance={balance} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700" disabled={submitting}>
        退会する
      </button>
    </Form>
  );
}

/** The confirmation box: a checkbox, so Conform's text-input helpers do not fit it. */
function ConfirmBox({ meta, balance }: { meta: FieldMeta; balance: number }) {
  return (
    <div>
      <label htmlFor={meta.id} className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          id={meta.id}
          name={meta.name}
          form={meta.formId}
          required={meta.required}
          defaultChecked={meta.initialValue === "on"}
          aria-invalid={meta.errors ? true : undefined}
          aria-describedby={meta.errors ? meta.errorId : undefined}
          className="mt-0.5 size-5 accent-red-600"
        />
        <span>
          {balance > 0 ? `残高 ${formatNumber(balance)} コインが失効すること、` : ""}
          投稿と画像が削除されることを確認し、退会します
        </span>
      </label>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
