import { Form, useNavigation } from "@remix-run/react";
import { DECISION_REASON_MAX, SUSPEND_DAYS_MAX } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";

export type DecisionIntent = keyof typeof text.decisionLabels;

/** What the server answered a refused decision with (app/http/desk-decisions.server.ts's DecisionFormData). */
interface Refusal {
  formError: string | null;
  fieldErrors: Partial<Record<"reason" | "days", string>>;
  values: { reason: string; days: string };
}

/**
 * A desk decision (ADR 071) as one plain form: the reason (required, kept in the audit trail), the days of a
 * suspension, and one submit button per decision offered, each sending its `intent`. Works without JavaScript.
 */
export function DeskDecisionForm({ id, intents, refusal, legend }: { id: string; intents: readonly DecisionIntent[]; refusal?: Refusal | null; legend: string }) {
  const submitting = useNavigation().state === "submitting";
  const reasonError = refusal?.fieldErrors.reason;
  const daysError = refusal?.fieldErrors.days;
  return (
    <Form method="post" id={id} className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" aria-labelledby={`${id}-legend`}>
      <h2 id={`${id}-legend`} className="text-lg font-bold">
        {legend}
      </h2>
      {refusal?.formError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {refusal.formError}
        </p>
      ) : null}
      <div>
        <label htmlFor={`${id}-reason`} className="block text-sm font-semibold">
          {text.reasonLabel}
        </label>
        <textarea
          id={`${id}-reason`}
          name="reason"
          required
          maxLength={DECISION_REASON_MAX}
          rows={3}
          defaultValue={refusal?.values.reason}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `${id}-reason-error` : undefined}
          className="mt-1 w-full rounded-lg border border-slate-300 p-2"
        />
        {reasonError ? (
          <p id={`${id}-reason-error`} className="mt-1 text-sm text-red-700">
            {reasonError}
          </p>
        ) : null}
      </div>
      {intents.includes("suspend") ? (
        <div>
          <label htmlFor={`${id}-days`} className="block text-sm font-semibold">
            {text.daysLabel}
          </label>
          <input
            id={`${id}-days`}
            name="days"
            type="number"
            inputMode="numeric"
            min={1}
            max={SUSPEND_DAYS_MAX}
            defaultValue={refusal?.values.days || "7"}
            aria-invalid={daysError ? true : undefined}
            aria-describedby={daysError ? `${id}-days-error` : undefined}
            className="mt-1 w-28 rounded-lg border border-slate-300 p-2"
          />
          {daysError ? (
            <p id={`${id}-days-error`} className="mt-1 text-sm text-red-700">
              {daysError}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {intents.map((intent) => (
          <button key={intent} type="submit" name="intent" value={intent} disabled={submitting} className={intent === "ban" || intent === "suspend" ? "btn bg-red-700 text-white hover:bg-red-800" : "btn-secondary"}>
            {text.decisionLabels[intent]}
          </button>
        ))}
      </div>
    </Form>
  );
}
