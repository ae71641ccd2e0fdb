import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList, TextField } from "~/components/forms";
import { authFormError, requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { changeEmailSchema } from "~/lib/validation/account";

export const meta: MetaFunction = () => pageMeta("メールアドレスの変更");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  return { email: user.email, rules: formRules(changeEmailSchema) };
}

/**
 * A new address (supabase-js `updateUser({ email })`): it becomes the account's only once confirmed from a link
 * mailed to it; the old address is told of the request.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireProfile(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: changeEmailSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { email } = submission.value;
  const { error } = await context.auth.supabase().auth.updateUser({ email });
  if (error) {
    const { status, message } = authFormError(error);
    return data({ result: submission.reply({ fieldErrors: { email: [message] } }) }, { status });
  }
  throw await redirectWithToast(request, context.config, "/settings", { type: "success", title: messages.auth.emailChangeSent(email.toLowerCase()) });
}

export default function ChangeEmailPage() {
  const { email, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({ id: "change-email", lastResult, rules });
  return (
    <section aria-labelledby="email-title" className="mx-auto max-w-md space-y-5">
      <h1 id="email-title" className="text-2xl font-bold">
        メールアドレスの変更
      </h1>
      <p className="text-sm text-slate-600">
        現在のアドレス: <span className="font-semibold text-slate-800">{email}</span>
        <br />
        新しいアドレスに確認メールを送ります。メールのリンクを開くまで、現在のアドレスのままです。
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <TextField meta={fields.email} label="新しいメールアドレス" type="email" autoComplete="email" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? "送信中…" : "確認メールを送る"}
        </button>
      </Form>
    </section>
  );
}
