import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { ErrorList, HoneypotFields, SelectField, TextareaField, TextField } from "~/components/forms";
import { readFormData } from "~/http/forms.server";
import { honeypotFor, isSpam } from "~/http/honeypot.server";
import { INQUIRY_BODY_MAX, INQUIRY_CATEGORIES } from "~/lib/constants";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { inquirySchema } from "~/lib/validation/inquiry";
import { createInquiry } from "~/models/inquiry.server";

export const meta: MetaFunction = () =>
  pageMeta("お問い合わせ", "GamerMatchへのご質問・ご意見・不具合のご報告はこちらのフォームからお送りください。");

export async function loader({ context }: LoaderFunctionArgs) {
  return { honeypot: honeypotFor(context.config).getInputProps(), rules: formRules(inquirySchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: inquirySchema });
  if (isSpam(honeypotFor(context.config), formData)) {
    return data({ result: submission.reply({ formErrors: [messages.validation.checkInput] }) }, { status: 400 });
  }
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  // A signed-in sender's account is linked to the inquiry, so the desk sees who wrote (the reply still goes to the address given).
  const user = await context.auth.getUser();
  await createInquiry({ db: context.db, inquiry: submission.value, userId: user?.id ?? null });
  return redirect("/inquiry?sent=1");
}

export default function InquiryPage() {
  const [searchParams] = useSearchParams();
  return (
    <div>
      <h1 className="mb-2 text-2xl font-bold">お問い合わせ</h1>
      {searchParams.get("sent") === "1" ? <Sent /> : <InquiryForm />}
    </div>
  );
}

function Sent() {
  return (
    <div role="status" className="mt-6 rounded-lg bg-emerald-50 p-5 text-emerald-900 ring-1 ring-emerald-200">
      <p className="font-semibold">{messages.inquiry.sent}</p>
      <p className="mt-4">
        <Link to="/inquiry" className="text-brand-600 underline">
          別の内容で問い合わせる
        </Link>
      </p>
    </div>
  );
}

function InquiryForm() {
  const { honeypot, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state === "submitting";
  const [form, fields] = useConstraintForm({
    id: "inquiry",
    lastResult,
    rules,
  });

  return (
    <>
      <p className="mb-6 text-slate-600">
        ご質問・ご意見・不具合のご報告をお送りください。回答までに数日いただく場合があります。よくあるご質問は
        <Link to="/support" className="text-brand-600 underline">
          サポート
        </Link>
        をご覧ください。
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <HoneypotFields {...honeypot} />
        <TextField meta={fields.name} label="お名前" autoComplete="name" />
        <TextField meta={fields.email} label="メールアドレス" type="email" autoComplete="email" />
        <SelectField meta={fields.category} label="お問い合わせの種類" options={INQUIRY_CATEGORIES} />
        <TextareaField
          meta={fields.body}
          label="お問い合わせ内容"
          hint={`${INQUIRY_BODY_MAX}文字以内。不具合の場合は、起きたこと・操作・日時をお書きください。`}
          rows={8}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={submitting}>
          {submitting ? "送信中…" : "送信する"}
        </button>
      </Form>
    </>
  );
}
