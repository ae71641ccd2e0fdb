import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { DeskDecisionForm, type DecisionIntent } from "~/components/desk-decision-form";
import { personState } from "~/components/desk-person-state";
import { DeskTargetView } from "~/components/desk-target-view";
import { postDecision } from "~/http/desk-decisions.server";
import { deskNotFound, requireOperator } from "~/http/desk.server";
import { DESK_PAGES } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import { reasonLabels, statusLabels, targetLabels } from "~/lib/messages/reports";
import { deskMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { formatDateTime } from "~/lib/time";
import { deskDecisionSchema, reportTargetParamsSchema } from "~/lib/validation/desk";
import { getReportTarget, type ReportTargetDetail } from "~/models/desk-reports.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => deskMeta(data ? text.targetTitle(targetLabels[data.detail.targetType]) : text.queueTitle);

/** The target of /admin/reports/{type}/{id}, reported at least once, or the 404 of an unknown path. */
async function targetOf(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const { type, id } = parseParams(reportTargetParamsSchema, params, request);
  const detail = await getReportTarget({ db: context.db, targetType: type, targetId: id });
  if (!detail) throw deskNotFound(request);
  return detail;
}

/** The decisions that apply now: each one the model would refuse is not offered (it would still refuse it). */
function intentsFor(detail: ReportTargetDetail, now = Date.now()): DecisionIntent[] {
  const open = detail.reports.some((report) => report.status === "open");
  const { owner, content } = detail;
  const stopped = owner.bannedAt !== null || (owner.suspendedUntil !== null && owner.suspendedUntil.getTime() > now);
  const intents: DecisionIntent[] = [];
  if (detail.targetType !== "user" && content && !content.hiddenAt) intents.push("hide");
  if (open) intents.push("dismiss");
  if (content?.hiddenAt) intents.push("restore");
  if (!owner.left && !owner.bannedAt) intents.push("suspend", "ban");
  if (!owner.left && (stopped || owner.heldPayouts > 0)) intents.push("lift");
  return intents;
}

/**
 * /admin/reports/{type}/{id} (ADR 071): what was reported, inline as its viewers saw it (the picture through
 * /admin/media), every report of it with its note, the owner's earlier decisions and reports, the off-platform
 * payment warnings counted for them, and the decisions, which are the command line's.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, DESK_PAGES.reports.roles);
  const detail = await targetOf(request, context, params);
  return { detail, intents: intentsFor(detail) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const desk = await requireOperator(request, context, DESK_PAGES.reports.roles);
  const detail = await targetOf(request, context, params);
  const { pathname } = new URL(request.url);
  return postDecision(request, context, { desk, schema: deskDecisionSchema, target: { type: detail.targetType, id: detail.targetId }, ownerId: detail.owner.id, back: pathname });
}

export default function ReportTarget() {
  const { detail, intents } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const { owner } = detail;
  const state = personState(owner);
  return (
    <section aria-labelledby="target-title" className="space-y-5">
      <p className="text-sm">
        <Link to="/admin/reports" className="text-brand-700 underline">
          {text.backToQueue}
        </Link>
      </p>
      <h1 id="target-title" className="text-2xl font-bold">
        {text.targetTitle(targetLabels[detail.targetType])}
      </h1>
      <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 className="mb-2 text-sm font-semibold text-slate-600">{text.asViewersSaw}</h2>
        <DeskTargetView content={detail.content} />
      </div>
      <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 className="font-bold">{text.owner}</h2>
        <p className="mt-1">
          <Link to={`/admin/users/${owner.id}`} className="text-brand-700 underline">
            {owner.displayName}
          </Link>
          <span className="ml-2 text-sm">{state}</span>
        </p>
        <p className="mt-1 text-sm">
          {text.offPlatformFlags(owner.offPlatformFlags)}
          {owner.heldPayouts > 0 ? `・${text.heldPayouts(owner.heldPayouts)}` : ""}
        </p>
      </div>
      <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 className="font-bold">{text.reportsOfTarget}</h2>
        <ul className="mt-2 space-y-2 text-sm" data-testid="target-reports">
          {detail.reports.map((report) => (
            <li key={report.id} className="break-words">
              <span className="font-semibold">{reasonLabels[report.reason]}</span>（{report.reporterName}、{formatDateTime(report.createdAt)}、{statusLabels[report.status]}）
              <span className="block whitespace-pre-wrap text-slate-700">{report.note || text.noNote}</span>
            </li>
          ))}
        </ul>
      </div>
      {intents.length > 0 ? <DeskDecisionForm id="decision" legend={text.decide} intents={intents} refusal={refusal} /> : null}
      <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 className="font-bold">{text.ownerHistory}</h2>
        {detail.history.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">{text.none}</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {detail.history.map((action) => (
              <li key={action.id} className="break-words">
                {formatDateTime(action.created_at)} {text.actionLabels[action.action]}
                {action.until ? `（${text.until(formatDateTime(action.until))}）` : ""}: {action.reason}
              </li>
            ))}
          </ul>
        )}
        <h2 className="mt-4 font-bold">{text.ownerReports}</h2>
        {detail.otherReports.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">{text.none}</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {detail.otherReports.map((report) => (
              <li key={report.id}>
                <Link to={`/admin/reports/${report.targetType}/${report.targetId}`} className="text-brand-700 underline">
                  {targetLabels[report.targetType]}
                </Link>{" "}
                {reasonLabels[report.reason]}（{formatDateTime(report.createdAt)}、{statusLabels[report.status]}）
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
