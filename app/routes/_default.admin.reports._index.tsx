import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { deskRefusesPosts, requireOperator } from "~/http/desk.server";
import { FilterSelect } from "~/components/filter-select";
import { DESK_PAGES } from "~/lib/constants/desk";
import { REPORT_REASONS, REPORT_TARGET_TYPES } from "~/lib/constants/moderation";
import * as text from "~/lib/messages/desk";
import { reasonLabels, targetLabels } from "~/lib/messages/reports";
import { deskMeta } from "~/lib/desk-meta";
import { parseQuery } from "~/lib/params";
import { formatDateTime } from "~/lib/time";
import { reportQueueQuerySchema } from "~/lib/validation/desk";
import { listReportQueue } from "~/models/desk-reports.server";

export const meta: MetaFunction = () => deskMeta(text.queueTitle);

/**
 * /admin/reports (ADR 071): the open reports, one row per reported thing with each reporter's note, the longest
 * waiting first, narrowed by a GET form (reason, kind of target) that works without JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, DESK_PAGES.reports.roles);
  const query = parseQuery(reportQueueQuerySchema, request);
  const rows = await listReportQueue({ db: context.db, reason: query.reason, targetType: query.type });
  // Put in words here, so the page's browser code carries no module of the gamers' pages (ADR 071).
  return {
    query,
    reasons: REPORT_REASONS.map((value) => ({ value, label: reasonLabels[value] })),
    types: REPORT_TARGET_TYPES.map((value) => ({ value, label: targetLabels[value] })),
    rows: rows.map((row) => ({
      ...row,
      targetLabel: targetLabels[row.targetType],
      firstReportedAt: formatDateTime(row.firstReportedAt),
      reports: row.reports.map((report) => ({ id: report.id, note: report.note, reporterName: report.reporterName, reasonLabel: reasonLabels[report.reason] })),
    })),
  };
}

/** Nothing is posted here (ADR 071). */
export const action = deskRefusesPosts;

export default function ReportQueue() {
  const { query, reasons, types, rows } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="queue-title" className="space-y-4">
      <div>
        <h1 id="queue-title" className="text-2xl font-bold">
          {text.queueTitle}
        </h1>
        <p className="mt-1 text-slate-600">{text.queueLead}</p>
      </div>
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
        <FilterSelect allLabel={text.filterAll} id="queue-reason" name="reason" label={text.filterReason} value={query.reason ?? ""} options={reasons} />
        <FilterSelect allLabel={text.filterAll} id="queue-type" name="type" label={text.filterType} value={query.type ?? ""} options={types} />
        <button type="submit" className="btn-secondary min-h-11">
          {text.filterSubmit}
        </button>
      </Form>
      {rows.length === 0 ? (
        <p className="rounded-xl bg-white p-4 text-slate-600 ring-1 ring-slate-200">{text.queueEmpty}</p>
      ) : (
        <ol className="space-y-3" data-testid="report-queue">
          {rows.map((row) => (
            <li key={`${row.targetType}:${row.targetId}`} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="queue-row">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="font-bold">
                  {row.targetLabel}・{text.reportCount(row.reports.length)}
                </h2>
                <span className="text-sm text-slate-600">
                  {text.firstReported}: {row.firstReportedAt}
                </span>
              </div>
              <p className="mt-1 text-sm">
                {text.owner}: {row.targetUserName}
                {row.offPlatformFlags > 0 ? <span className="ml-2 font-semibold text-red-800">{text.offPlatformFlags(row.offPlatformFlags)}</span> : null}
              </p>
              <ul className="mt-2 space-y-1 text-sm" aria-label={text.notes}>
                {row.reports.map((report) => (
                  <li key={report.id} className="break-words">
                    <span className="font-semibold">{report.reasonLabel}</span>（{report.reporterName}）: {report.note || text.noNote}
                  </li>
                ))}
              </ul>
              <p className="mt-3">
                <Link to={`/admin/reports/${row.targetType}/${row.targetId}`} className="btn-primary min-h-11">
                  {text.open}
                </Link>
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
