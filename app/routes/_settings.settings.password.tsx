import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList, TextField } from "~/components/forms";
import { NewPasswordFields } from "~/components/new-password-fields";
import { authFormError, requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { changePasswordSchema } from "~/lib/validation/account";

export const meta: MetaFunction = () => pageMeta("パスワードの変更");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireProfile(request, context);
  return { rules: formRules(changePasswordSchema) };
}

/** The current password again, then the new one (supabase-js `updateUser` with `current_password`); other sessions end. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireProfile(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: changePasswordSchema });
  const hideFields = ["currentPassword", "password", "confirmPassword"];
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400 });
  const { currentPassword, password } = submission.value;
  const { error } = await context.auth.supabase().auth.updateUser({ password, current_password: currentPassword });
  if (error) {
    const { status, message } = authFormError(error);
    const field = error.code === "current_password_mismatch" ? "currentPassword" : error.code === "same_password" || error.code === "weak_password" ? "password" : null;
    return data({ result: submission.reply(field ? { fieldErrors: { [field]: [message] }, hideFields } : { formErrors: [message], hideFields }) }, { status });
  }
  throw await redirectWithToast(request, context.config, "/settings", { type: "success", title: messages.auth.passwordChanged });
}

export default function ChangePasswordPage() {
  const { rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({ id: "change-password", lastResult, rules });
  return (
    <section aria-labelledby="password-title" className="mx-auto max-w-md space-y-5">
      <h1 id="password-title" className="text-2xl font-bold">
        パスワードの変更
      </h1>
      <p className="text-sm text-slate-600">変更すると、この端末以外はすべてログアウトされます。</p>
      <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <TextField meta={fields.currentPassword} label="現在のパスワード" type="password" autoComplete="current-password" />
        <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? "変更中…" : "パスワードを変更する"}
        </button>
      </Form>
      <p className="text-sm text-slate-600">
        現在のパスワードがわからない場合は、
        <Link to="/forgot-password" className="text-brand-600 underline">
          パスワードの再設定
        </Link>
        から手続きしてください。
      </p>
    </section>
  );
}
