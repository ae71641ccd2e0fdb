import { data, type AppLoadContext } from "@remix-run/node";
import type { ReportTargetType } from "~/infra/db/tables";
import * as text from "~/lib/messages/desk";
import type { deskDecisionSchema, personDecisionSchema } from "~/lib/validation/desk";
import { decideOnTarget, deskDecisionAllowed } from "~/models/desk-reports.server";
import { ModerationError, type DecisionOutcome } from "~/models/moderation.server";
import type { DeskOperator } from "./desk.server";
import { readFormData } from "./forms.server";
import { redirectWithToast } from "./toast.server";

/**
 * A decision posted from a desk page (ADR 071), the same for the report pages and the person pages: the form read and
 * checked (a reason always, days for a suspension), the operator's decisions rate-limited, the command line's own
 * model function run (one transaction with its audit row), and a redirect back with a toast (POST-redirect-GET). A
 * refusal answers the form again with its message: 400 for bad input, 409 for a decision that no longer applies,
 * 404 for what is gone, 429 for too many.
 */

export interface DecisionFormData {
  formError: string | null;
  fieldErrors: Partial<Record<"reason" | "days", string>>;
  values: { reason: string; days: string };
}

const refusal = (status: number, formError: string | null, values: DecisionFormData["values"], fieldErrors: DecisionFormData["fieldErrors"] = {}) =>
  data({ formError, fieldErrors, values } satisfies DecisionFormData, { status });

const refusalStatus: Record<ModerationError["code"], number> = {
  report_not_found: 404,
  user_not_found: 404,
  target_not_found: 404,
  user_not_hideable: 409,
  already_decided: 409,
  already_banned: 409,
  reason_required: 400,
  nothing_to_restore: 409,
};

/** What the toast says a decision did: the decision, and the reports it settled. */
function outcomeToast(intent: keyof typeof text.decided, outcome: DecisionOutcome) {
  const said = [...(outcome.changed ? [] : [text.alreadyHidden]), ...(outcome.reportsDecided > 0 ? [text.reportsSettled(outcome.reportsDecided)] : [])];
  return { type: "success" as const, title: text.decided[intent], ...(said.length > 0 ? { description: said.join("。") } : {}) };
}

export async function postDecision(
  request: Request,
  context: AppLoadContext,
  {
    desk,
    schema,
    target,
    ownerId,
    back,
  }: {
    desk: DeskOperator;
    schema: typeof deskDecisionSchema | typeof personDecisionSchema;
    target: { type: ReportTargetType; id: string } | null;
    ownerId: string;
    /** Where the browser goes once it is done. */
    back: string;
  },
) {
  const form = await readFormData(request);
  const values = { reason: String(form.get("reason") ?? ""), days: String(form.get("days") ?? "") };
  const parsed = schema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const flat = parsed.error.flatten();
    const fieldErrors = { reason: flat.fieldErrors.reason?.[0], days: flat.fieldErrors.days?.[0] };
    return refusal(400, fieldErrors.reason || fieldErrors.days ? null : text.invalidDecision, values, fieldErrors);
  }
  if (!(await deskDecisionAllowed(context.db, desk.user.id))) return refusal(429, text.rateLimited, values);
  let outcome: DecisionOutcome;
  try {
    outcome = await decideOnTarget({ db: context.db, realtime: context.realtime, storage: context.storage, operator: desk.operator, target, ownerId, decision: parsed.data });
  } catch (error) {
    if (error instanceof ModerationError) return refusal(refusalStatus[error.code], text.errors[error.code], values);
    throw error;
  }
  throw await redirectWithToast(request, context.config, back, outcomeToast(parsed.data.intent, outcome));
}
