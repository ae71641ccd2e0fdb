import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { ErrorList, TextField } from "~/components/forms";
import { afterSignIn, authFormError } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { hostedFactorRemover } from "~/infra/auth/hosted-factors";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { recoveryCodeSchema, secondStepCodeSchema, secondStepSchema } from "~/lib/validation/mfa";
import { deleteUserFactors } from "~/models/auth/factors.server";
import { recoveryCodeAttemptAllowed, spendRecoveryCode } from "~/models/two-step.server";

export const meta: MetaFunction = () => pageMeta("二段階認証", "認証アプリの確認コードを入力して、GamerMatchへのログインを完了します。");

/**
 * The second step of a sign-in (ADR 064): a session that the password (or Discord) began, for an account with an
 * authenticator app, is signed in only once the app's code is verified here (supabase-js `mfa.challengeAndVerify`,
 * against hosted Supabase or the embedded auth). A recovery code instead turns the second step off for a lost phone.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await pendingSession(request, context);
  const { data: factors } = await context.auth.supabase().auth.mfa.listFactors();
  const verified = (factors?.totp ?? []).filter((factor) => factor.status === "verified").map((factor) => ({ id: factor.id, name: factor.friendly_name ?? "" }));
  return { email: session.email, factors: verified, rules: { code: formRules(secondStepCodeSchema), recovery: formRules(recoveryCodeSchema) } };
}

/** The session that owes its second step; anyone else goes where they belong (signed out: /login; signed in: on). */
async function pendingSession(request: Request, context: LoaderFunctionArgs["context"]) {
  const session = await context.auth.getSignIn();
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (!session) throw redirect(redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : "/login");
  if (!session.secondStepPending) throw redirect(afterSignIn(redirectTo));
  return session;
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The form is read first: a post the app could not store anyway (a NUL) is a 400 whoever sends it.
  const formData = await readFormData(request);
  const session = await pendingSession(request, context);
  const submission = parseWithZod(formData, { schema: secondStepSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["code", "recoveryCode"] }) }, { status: 400 });
  const value = submission.value;
  const supabase = context.auth.supabase();
  const { data: listed } = await supabase.auth.mfa.listFactors();
  const factors = (listed?.totp ?? []).filter((factor) => factor.status === "verified");

  if (value.intent === "code") {
    const factorId = value.factorId ?? factors[0]?.id;
    if (!factorId) return data({ result: submission.reply({ formErrors: [messages.auth.mfaFactorNotFound], hideFields: ["code"] }) }, { status: 400 });
    const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code: value.code });
    if (error) {
      const { status, message } = authFormError(error);
      const onField = error.code === "mfa_verification_failed";
      return data({ result: submission.reply({ ...(onField ? { fieldErrors: { code: [message] } } : { formErrors: [message] }), hideFields: ["code"] }) }, { status });
    }
    throw redirect(afterSignIn(value.redirectTo));
  }

  // A recovery code: counted before it is judged, so guessing runs into the limit; then spent with the factors.
  if (!(await recoveryCodeAttemptAllowed(context.db, session.id))) {
    return data({ result: submission.reply({ formErrors: [messages.auth.mfaRateLimited], hideFields: ["recoveryCode"] }) }, { status: 429 });
  }
  const hosted = hostedFactorRemover(context.config);
  if (context.config.SUPABASE_URL && !hosted) {
    return data({ result: submission.reply({ formErrors: [messages.auth.failed], hideFields: ["recoveryCode"] }) }, { status: 503 });
  }
  const spent = await spendRecoveryCode(context.db, {
    user: { id: session.id, email: session.email },
    code: value.recoveryCode,
    removeFactors: (trx) =>
      hosted
        ? hosted(
            session.id,
            factors.map((factor) => factor.id),
          )
        : deleteUserFactors(trx, session.id),
  });
  if (!spent) return data({ result: submission.reply({ fieldErrors: { recoveryCode: [messages.auth.recoveryCodeWrong] }, hideFields: ["recoveryCode"] }) }, { status: 400 });
  throw await redirectWithToast(request, context.config, "/settings/security", { type: "success", title: messages.auth.recoveryCodeUsed });
}

export default function SecondStepPage() {
  const { email, factors, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const recoveryTried = lastResult?.initialValue?.intent === "recovery";
  const [codeForm, codeFields] = useConstraintForm({ id: "second-step", lastResult: recoveryTried ? undefined : lastResult, rules: rules.code });
  const [recoveryForm, recoveryFields] = useConstraintForm({ id: "recovery-code", lastResult: recoveryTried ? lastResult : undefined, rules: rules.recovery });
  return (
    <section className="mx-auto max-w-md space-y-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" aria-labelledby="mfa-title">
      <div className="space-y-2">
        <h1 id="mfa-title" className="text-2xl font-bold">
          二段階認証
        </h1>
        <p className="text-sm text-slate-600">
          {messages.auth.secondStepRequired}。{email} の認証アプリに表示されている6桁の確認コードを入力してください。
        </p>
      </div>
      <Form method="post" {...getFormProps(codeForm)} className="space-y-5">
        <input type="hidden" name="intent" value="code" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        {factors.length > 1 ? (
          <label className="block space-y-1 text-sm font-medium">
            <span>認証アプリ</span>
            <select name="factorId" className="field-input" defaultValue={factors[0]!.id}>
              {factors.map((factor, i) => (
                <option key={factor.id} value={factor.id}>
                  {factor.name || `認証アプリ ${i + 1}`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <TextField meta={codeFields.code!} label="確認コード（6桁）" autoComplete="one-time-code" inputMode="numeric" />
        <ErrorList id={codeForm.errorId} errors={codeForm.errors} />
        <button type="submit" className="btn-primary w-full" disabled={!!busy}>
          {busy === "code" ? "確認中…" : "確認してログイン"}
        </button>
      </Form>
      <details className="rounded-lg bg-slate-50 p-4 text-sm ring-1 ring-slate-200" open={recoveryTried}>
        <summary className="cursor-pointer font-medium">認証アプリを使えない場合</summary>
        <p className="mt-3 text-slate-600">
          設定時に保存したリカバリーコードを1つ入力してください。ログインすると二段階認証は解除されるので、あらためて設定してください。
        </p>
        <Form method="post" {...getFormProps(recoveryForm)} className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="recovery" />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <TextField meta={recoveryFields.recoveryCode!} label="リカバリーコード" autoComplete="off" />
          <ErrorList id={recoveryForm.errorId} errors={recoveryForm.errors} />
          <button type="submit" className="btn-secondary w-full" disabled={!!busy}>
            {busy === "recovery" ? "確認中…" : "リカバリーコードでログイン"}
          </button>
        </Form>
        <p className="mt-3 text-slate-600">リカバリーコードもない場合は、お問い合わせフォームからご連絡ください。</p>
      </details>
      <Form method="post" action="/logout" className="text-center">
        <input type="hidden" name="next" value="/login" />
        <button type="submit" className="text-sm text-brand-600 underline">
          ログアウトして別のアカウントでログイン
        </button>
      </Form>
    </section>
  );
}
