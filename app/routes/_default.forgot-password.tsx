import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { ErrorList, TextField } from "~/components/forms";
import { authFormError } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { forgotPasswordSchema } from "~/lib/validation/account";

export const meta: MetaFunction = () => pageMeta("パスワードの再設定", "登録したメールアドレスに、パスワードを再設定するためのリンクをお送りします。");

export async function loader(_: LoaderFunctionArgs) {
  return { rules: formRules(forgotPasswordSchema) };
}

/**
 * 「パスワードをお忘れの方」(docs/product.md#accounts): supabase-js `resetPasswordForEmail`, as with hosted Supabase. The page says
 * the same whether or not the address has an account; only a rate limit (429) is said as such.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { error } = await context.auth.supabase().auth.resetPasswordForEmail(submission.value.email);
  if (error) {
    const { status, message } = authFormError(error);
    return data({ result: submission.reply({ formErrors: [message] }) }, { status });
  }
  throw redirect("/forgot-password?sent=1");
}

export default function ForgotPasswordPage() {
  const [searchParams] = useSearchParams();
  return (
    <section className="mx-auto max-w-md rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" aria-labelledby="forgot-title">
      <h1 id="forgot-title" className="mb-4 text-2xl font-bold">
        パスワードの再設定
      </h1>
      {searchParams.get("sent") === "1" ? <Sent /> : <ForgotForm />}
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link to="/login" className="text-brand-600 underline">
          ログインに戻る
        </Link>
      </p>
    </section>
  );
}

function Sent() {
  return (
    <div role="status" className="rounded-lg bg-emerald-50 p-4 text-emerald-900 ring-1 ring-emerald-200">
      <p>{messages.auth.recoverySent}</p>
    </div>
  );
}

function ForgotForm() {
  const { rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({ id: "forgot-password", lastResult, rules });
  return (
    <>
      <p className="mb-5 text-sm text-slate-600">ご登録のメールアドレスを入力してください。パスワードを再設定するためのリンク（1時間有効）をお送りします。</p>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <TextField meta={fields.email} label="メールアドレス" type="email" autoComplete="email" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? "送信中…" : "再設定メールを送る"}
        </button>
      </Form>
    </>
  );
}
