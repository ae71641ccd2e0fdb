import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList } from "~/components/forms";
import { NewPasswordFields } from "~/components/new-password-fields";
import { authFormError, requireUser } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { resetPasswordSchema } from "~/lib/validation/account";

export const meta: MetaFunction = () => [...pageMeta("新しいパスワードの設定"), { name: "robots", content: "noindex" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return { rules: formRules(resetPasswordSchema) };
}

/**
 * After a recovery link (/auth/confirm signed this browser in with a recovery session): the new password, set with
 * supabase-js `updateUser`, which ends every other session. Without a recovery session the auth server asks for the
 * current password, and this page points to /settings/password.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: resetPasswordSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400 });
  const { error } = await context.auth.supabase().auth.updateUser({ password: submission.value.password });
  if (error) {
    const { status, message } = authFormError(error);
    return data({ result: submission.reply({ formErrors: [message], hideFields }) }, { status });
  }
  throw await redirectWithToast(request, context.config, "/mypage", { type: "success", title: messages.auth.passwordChanged });
}

export default function ResetPasswordPage() {
  const { rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({ id: "reset-password", lastResult, rules });
  return (
    <section className="mx-auto max-w-md rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" aria-labelledby="reset-title">
      <h1 id="reset-title" className="mb-4 text-2xl font-bold">
        新しいパスワードの設定
      </h1>
      <p className="mb-5 text-sm text-slate-600">新しいパスワードを設定すると、ほかの端末はすべてログアウトされます。</p>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? "設定中…" : "パスワードを設定する"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link to="/settings/password" className="text-brand-600 underline">
          現在のパスワードで変更する
        </Link>
      </p>
    </section>
  );
}
