import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { ErrorList, TextField } from "./forms";

/** The email + password form of /login and /signup: same fields, schema and submit label differ. */
export function CredentialsForm({
  id,
  schema,
  lastResult,
  redirectTo,
  submitLabel,
  passwordHint,
  passwordAutoComplete,
}: {
  id: string;
  schema: z.ZodTypeAny;
  lastResult: SubmissionResult<string[]> | undefined;
  redirectTo: string | null;
  submitLabel: string;
  passwordHint?: string;
  passwordAutoComplete: "current-password" | "new-password";
}) {
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useForm({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <TextField meta={fields.email} label="メールアドレス" type="email" autoComplete="email" />
      <TextField meta={fields.password} label="パスワード" type="password" autoComplete={passwordAutoComplete} hint={passwordHint} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-primary w-full" disabled={submitting}>
        {submitting ? "送信中…" : submitLabel}
      </button>
    </Form>
  );
}
