import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import type { FormRules } from "~/lib/form-rules";
import { ErrorList, TextField } from "./forms";

/** The email + password form of /login and /signup: same fields, rules and submit label differ. */
export function CredentialsForm({
  id,
  rules,
  lastResult,
  redirectTo,
  submitLabel,
  passwordHint,
  passwordAutoComplete,
}: {
  id: string;
  /** The server's schema as rules for the browser (formRules in the page's loader). */
  rules: FormRules;
  lastResult: SubmissionResult<string[]> | undefined;
  redirectTo: string | null;
  submitLabel: string;
  passwordHint?: string;
  passwordAutoComplete: "current-password" | "new-password";
}) {
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({
    id,
    lastResult,
    rules,
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
