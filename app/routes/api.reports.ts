import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, parseOrThrow, readJson, reportErrorResponse, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { reportSchema } from "~/lib/validation/report";
import { createReport, listReports } from "~/models/reports.server";

/** GET /api/reports → success, data.reports: the caller's own reports, newest first (nobody else's, ever). */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const reports = await listReports({ db: context.db, reporterId: user.id });
  return apiOk({ data: { reports } }, { headers: { "Cache-Control": "no-store" } });
}

/**
 * POST /api/reports {targetType, targetId, reason, note?} → data.report: 201 when filed, 200 with the first report
 * when the caller had reported this thing already (docs/product.md#trust-and-safety). Something the caller cannot see 404; their own 422;
 * more than 20 new reports in 24 hours 429.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const input = parseOrThrow(reportSchema, await readJson(request));
  try {
    const { report, created } = await createReport({ db: context.db, reporterId: user.id, ...input });
    return apiOk({ data: { report } }, { status: created ? 201 : 200 });
  } catch (error) {
    return reportErrorResponse(error);
  }
}
