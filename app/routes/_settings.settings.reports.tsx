import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireProfile } from "~/http/auth.server";
import type { ReportTargetType } from "~/lib/constants/moderation";
import * as text from "~/lib/messages/reports";
import { pageMeta } from "~/lib/meta";
import { formatDateTime, isoString } from "~/lib/time";
import { listReports } from "~/models/reports.server";

export const meta: MetaFunction = () => pageMeta(text.listTitle);

/** `/settings/reports`: the user's own reports and whether each was decided (docs/product.md#trust-and-safety), never how. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  return { reports: await listReports({ db: context.db, reporterId: user.id }) };
}

/** Where the reported thing has a page of its own. */
function targetPath(type: ReportTargetType, id: string) {
  if (type === "user") return `/u/${id}`;
  if (type === "listing") return `/tickets/${id}`;
  return null;
}

const STATUS_STYLES = { open: "bg-slate-100 text-slate-800", actioned: "bg-green-50 text-green-800", dismissed: "bg-slate-50 text-slate-600" } as const;

export default function ReportHistoryPage() {
  const { reports } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="reports-title" className="space-y-5">
      <div>
        <h1 id="reports-title" className="text-2xl font-bold">
          {text.listTitle}
        </h1>
        <p className="mt-1 text-slate-600">{text.listLead}</p>
      </div>
      {reports.length === 0 ? (
        <p className="rounded-lg bg-slate-50 px-4 py-4 text-center text-sm text-slate-600">{text.listEmpty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl bg-white shadow-sm ring-1 ring-slate-200" aria-label={text.listTitle}>
          {reports.map((report) => {
            const path = targetPath(report.targetType, report.targetId);
            return (
              <li key={report.id} className="space-y-1 p-4" data-testid="report">
                <div className="flex flex-wrap items-center gap-2">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[report.status]}`}>{text.statusLabels[report.status]}</span>
                  <span className="font-semibold">
                    {path ? (
                      <Link to={path} className="text-brand-700 underline">
                        {text.targetLabels[report.targetType]}
                      </Link>
                    ) : (
                      text.targetLabels[report.targetType]
                    )}
                  </span>
                  <span className="text-sm text-slate-700">{text.reasonLabels[report.reason]}</span>
                  <time className="ml-auto text-xs text-slate-600" dateTime={isoString(report.createdAt)}>
                    {formatDateTime(report.createdAt)}
                  </time>
                </div>
                {report.note ? <p className="whitespace-pre-wrap break-words text-sm text-slate-700">{report.note}</p> : null}
              </li>
            );
          })}
        </ul>
      )}
      <p className="text-sm">
        <Link to="/settings" className="text-brand-700 underline">
          {text.listBack}
        </Link>
      </p>
    </section>
  );
}
