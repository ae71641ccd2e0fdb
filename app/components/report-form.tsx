import type { SubmissionResult } from "@conform-to/react";
import type { Form as RemixForm, FetcherWithComponents } from "@remix-run/react";
import { ErrorList } from "~/components/forms";
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportTargetType } from "~/lib/constants/moderation";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import type { FormRules } from "~/lib/form-rules";
import * as text from "~/lib/messages/reports";

/**
 * What the report action (routes/_default.report.tsx) answers the dialog's fetcher: the form's result, and the words
 * to show once the report is filed (null until then).
 */
export interface ReportActionData {
  result: SubmissionResult<string[]>;
  sent: string | null;
}

type FormComponent = typeof RemixForm | FetcherWithComponents<unknown>["Form"];

/**
 * The report form (通報, docs/product.md#trust-and-safety): the reason as radio buttons, an optional note, submit. The /report page renders
 * it with Remix's <Form> (a plain POST that redirects back with a toast) and the report dialog with a fetcher's.
 */
export function ReportForm({
  id,
  as: Form,
  action,
  target,
  redirectTo,
  rules,
  lastResult,
  submitting,
}: {
  id: string;
  as: FormComponent;
  action?: string;
  target: { type: ReportTargetType; id: string };
  /** Where the page goes back to; the dialog sends none and stays open with the result. */
  redirectTo?: string;
  rules: FormRules;
  lastResult: SubmissionResult<string[]> | null | undefined;
  submitting: boolean;
}) {
  const [form, fields] = useConstraintForm({ id, lastResult, rules });
  const reason = fields.reason;
  const note = fields.note;
  const chosen = typeof reason.initialValue === "string" ? reason.initialValue : undefined;
  const counterId = `${note.id}-description`;
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="targetType" value={target.type} />
      <input type="hidden" name="targetId" value={target.id} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <fieldset aria-describedby={reason.errors ? reason.errorId : undefined} aria-invalid={reason.errors ? true : undefined}>
        <legend className="field-label">
          {text.reasonLegend}
          <span className="ml-1 text-xs font-normal text-red-600">必須</span>
        </legend>
        <div key={form.key} className="mt-1 grid gap-1 sm:grid-cols-2">
          {REPORT_REASONS.map((value) => (
            <label key={value} className="flex min-h-11 items-center gap-3 rounded-lg px-2 ring-1 ring-slate-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-500">
              <input type="radio" name="reason" value={value} required defaultChecked={chosen === value} className="size-5" />
              {text.reasonLabels[value]}
            </label>
          ))}
        </div>
        <ErrorList id={reason.errorId} errors={reason.errors} />
      </fieldset>
      <div>
        <label htmlFor={note.id} className="field-label">
          {text.noteLabel}
        </label>
        <textarea
          key={form.key}
          id={note.id}
          name="note"
          rows={4}
          maxLength={REPORT_NOTE_MAX}
          defaultValue={typeof note.initialValue === "string" ? note.initialValue : ""}
          aria-describedby={note.errors ? `${counterId} ${note.errorId}` : counterId}
          aria-invalid={note.errors ? true : undefined}
          className="field-input"
        />
        <p id={counterId} className="mt-1 text-xs text-slate-600">
          {text.noteHint(REPORT_NOTE_MAX)}
        </p>
        <ErrorList id={note.errorId} errors={note.errors} />
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-primary w-full" disabled={submitting} aria-busy={submitting || undefined}>
        {submitting ? text.submitting : text.submit}
      </button>
    </Form>
  );
}
