import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { DeskDecisionForm, type DecisionIntent } from "~/components/desk-decision-form";
import { DeskTargetView } from "~/components/desk-target-view";
import { postDecision } from "~/http/desk-decisions.server";
import { contentView, decisionLine, formatDateTime, personState, reasonLabels, reportLine, statusLabels, targetLabels } from "~/http/desk-view.server";
import { deskNotFound, requireOperator } from "~/http/desk.server";
import { DESK_PAGES } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import { deskMeta } from "~/lib/desk-meta";
import { parseParams } from "~/lib/params";
import { deskDecisionSchema, reportTargetParamsSchema } from "~/lib/validation/desk";
import { getReportTarget, type ReportTargetDetail } from "~/models/desk-reports.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => deskMeta(data ? data.title : text.queueTitle);

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
  const { owner } = detail;
  return {
    title: text.targetTitle(targetLabels[detail.targetType]),
    content: contentView(detail.content),
    owner: { id: owner.id, displayName: owner.displayName, state: personState(owner), offPlatformFlags: owner.offPlatformFlags, heldPayouts: owner.heldPayouts },
    reports: detail.reports.map((report) => ({
      id: report.id,
      note: report.note,
      line: `${reasonLabels[report.reason]}（${report.reporterName}、${formatDateTime(report.createdAt)}、${statusLabels[report.status]}）`,
    })),
    history: detail.history.map(decisionLine),
    otherReports: detail.otherReports.map(reportLine),
    intents: intentsFor(detail),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const desk = await requireOperator(request, context, DESK_PAGES.reports.roles);
  const detail = await targetOf(request, context, params);
  const { pathname } = new URL(request.url);
  return postDecision(request, context, { desk, schema: deskDecisionSchema, target: { type: detail.targetType, id: detail.targetId }, ownerId: detail.owner.id, back: pathname });
}

export default function ReportTarget() {
  const { title, content, owner, reports, history, otherReports, intents } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  return (
    <section aria-labelledby="target-title" className="space-y-5">
      <p className="text-sm">
        <Link to="/admin/reports" className="text-brand-700 underline">
          {text.backToQueue}
        </Link>
      </p>
      <h1 id="target-title" className="text-2xl font-bold">
        {title}
      </h1>
      <div className={card}>
        <h2 className="mb-2 text-sm font-semibold text-slate-600">{text.asViewersSaw}</h2>
        <DeskTargetView content={content} />
      </div>
      <div className={card}>
        <h2 className="font-bold">{text.owner}</h2>
        <p className="mt-1">
          <Link to={`/admin/users/${owner.id}`} className="text-brand-700 underline">
            {owner.displayName}
          </Link>
          <span className="ml-2 text-sm">{owner.state}</span>
        </p>
        <p className="mt-1 text-sm">
          {text.offPlatformFlags(owner.offPlatformFlags)}
          {owner.heldPayouts > 0 ? `・${text.heldPayouts(owner.heldPayouts)}` : ""}
        </p>
      </div>
      <div className={card}>
        <h2 className="font-bold">{text.reportsOfTarget}</h2>
        <ul className="mt-2 space-y-2 text-sm" data-testid="target-reports">
          {reports.map((report) => (
            <li key={report.id} className="break-words">
              {report.line}
              <span className="block whitespace-pre-wrap text-slate-700">{report.note || text.noNote}</span>
            </li>
          ))}
        </ul>
      </div>
      {intents.length > 0 ? <DeskDecisionForm id="decision" legend={text.decide} intents={intents} refusal={refusal} /> : null}
      <div className={card}>
        <h2 className="font-bold">{text.ownerHistory}</h2>
        {history.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">{text.none}</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {history.map((action) => (
              <li key={action.id} className="break-words">
                {action.line}
              </li>
            ))}
          </ul>
        )}
        <h2 className="mt-4 font-bold">{text.ownerReports}</h2>
        {otherReports.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">{text.none}</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {otherReports.map((report) => (
              <li key={report.id}>
                <Link to={report.href} className="text-brand-700 underline">
                  {report.targetLabel}
                </Link>{" "}
                {report.detail}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

const card = "rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200";
