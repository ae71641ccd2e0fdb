import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ReportForm, type ReportActionData } from "~/components/report-form";
import { requireProfile, safeRedirectPath } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import type { ReportTargetType } from "~/lib/constants/moderation";
import { reportErrorMessage } from "~/lib/error-messages";
import { formRules } from "~/lib/form-rules.server";
import * as text from "~/lib/messages/reports";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { reportFormSchema, reportQuerySchema } from "~/lib/validation/report";
import { createReport, findReportTarget, ReportError } from "~/models/reports.server";

export const meta: MetaFunction = () => pageMeta(text.title);

/** Where a report goes back to when the link did not say: the reported profile or listing, else the report history. */
function defaultReturn(type: ReportTargetType, id: string) {
  if (type === "user") return `/u/${id}`;
  if (type === "listing") return `/tickets/${id}`;
  return "/settings/reports";
}

/**
 * `/report?type=…&id=…[&redirectTo=…]`: the report dialog's page twin (docs/product.md#trust-and-safety), a plain form that works without
 * JavaScript. The dialog loads this loader's data with a fetcher and posts to this action. Something the viewer cannot
 * see is a 404, as it is for POST /api/reports.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const query = parseQuery(reportQuerySchema, request);
  const target = await findReportTarget({ db: context.db, reporterId: user.id, targetType: query.type, targetId: query.id });
  if (!target) throw new Response(text.notFound, { status: 404, statusText: "Not Found" });
  return {
    target: { type: query.type, id: query.id },
    self: target.ownerId === user.id,
    redirectTo: safeRedirectPath(query.redirectTo, defaultReturn(query.type, query.id)),
    rules: formRules(reportFormSchema),
  };
}

/**
 * Files the report through the same model and schema as POST /api/reports. With `redirectTo` (the page) it goes back
 * there with a toast; without (the dialog's fetcher) it answers the result: 201 filed, 200 filed before.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: reportFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sent: null } satisfies ReportActionData, { status: 400 });
  const { redirectTo, ...input } = submission.value;
  let created: boolean;
  try {
    ({ created } = await createReport({ db: context.db, reporterId: user.id, ...input }));
  } catch (error) {
    if (error instanceof ReportError) return data({ result: submission.reply({ formErrors: [reportErrorMessage(error.code)] }), sent: null } satisfies ReportActionData, { status: error.status });
    throw error;
  }
  const sent = created ? text.sent : text.alreadySent;
  if (redirectTo) {
    throw await redirectWithToast(request, context.config, safeRedirectPath(redirectTo, defaultReturn(input.targetType, input.targetId)), { type: "success", title: sent });
  }
  return data({ result: submission.reply({ resetForm: true }), sent } satisfies ReportActionData, { status: created ? 201 : 200 });
}

export default function ReportPage() {
  const { target, self, redirectTo, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="report-title" className="mx-auto max-w-xl space-y-6">
      <div>
        <h1 id="report-title" className="text-2xl font-bold">
          {text.targetLabels[target.type]}を{text.title}
        </h1>
        <p className="mt-1 text-slate-600">{text.lead}</p>
      </div>
      <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        {self ? (
          <p role="alert" className="text-red-700">
            {text.self}
          </p>
        ) : (
          <ReportForm id="report" as={Form} target={target} redirectTo={redirectTo} rules={rules} lastResult={lastResult} submitting={submitting} />
        )}
      </div>
      <p className="text-sm">
        <Link to={redirectTo} className="text-brand-700 underline">
          {text.cancel}
        </Link>
      </p>
    </section>
  );
}
