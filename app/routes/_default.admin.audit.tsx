import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { deskRefusesPosts, requireOperator } from "~/http/desk.server";
import { FilterSelect } from "~/components/filter-select";
import { AUDIT_TARGET_TYPES, DESK_PAGES, OPERATOR_AUDIT_KINDS } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import { deskMeta } from "~/lib/desk-meta";
import { parseQuery } from "~/lib/params";
import { formatDateTime } from "~/http/desk-view.server";
import { auditQuerySchema } from "~/lib/validation/desk";
import { listOperatorActions } from "~/models/operator-audit.server";

export const meta: MetaFunction = () => deskMeta(text.auditTitle);

const PAGE_SIZE = 50;

/**
 * /admin/audit (ADR 071, admins): the operators' trail newest first, narrowed by operator, target and kind (a GET
 * form), in keyset pages (`before`: the last row's id). The page only reads: the table refuses every change anyway.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, DESK_PAGES.audit.roles);
  const query = parseQuery(auditQuerySchema, request);
  const page = await listOperatorActions(context.db, {
    operatorId: query.operator,
    target: query.type ? { type: query.type, id: query.target } : undefined,
    kind: query.kind,
    before: query.before,
    limit: PAGE_SIZE,
  });
  const next = new URLSearchParams(
    Object.entries({ operator: query.operator, type: query.type, target: query.target, kind: query.kind }).flatMap(([key, value]) => (value ? [[key, value]] : [])),
  );
  if (page.nextBefore !== null) next.set("before", String(page.nextBefore));
  return {
    query,
    rows: page.rows.map((row) => ({ ...row, at: formatDateTime(row.at), details: JSON.stringify(row.details) })),
    olderHref: page.nextBefore !== null ? `/admin/audit?${next}` : null,
  };
}

/** Nothing is posted here (ADR 071). */
export const action = deskRefusesPosts;

export default function DeskAudit() {
  const { query, rows, olderHref } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="audit-title" className="space-y-4">
      <div>
        <h1 id="audit-title" className="text-2xl font-bold">
          {text.auditTitle}
        </h1>
        <p className="mt-1 text-slate-600">{text.auditLead}</p>
      </div>
      <Form method="get" className="grid gap-3 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2">
        <FilterSelect allLabel={text.filterAll} id="audit-kind" name="kind" label={text.auditKind} value={query.kind ?? ""} options={OPERATOR_AUDIT_KINDS.map((kind) => ({ value: kind, label: text.auditKinds[kind] }))} />
        <div>
          <label htmlFor="audit-operator" className="field-label">
            {text.auditOperator}
          </label>
          <input id="audit-operator" name="operator" defaultValue={query.operator ?? ""} maxLength={36} className="field-input" />
        </div>
        <FilterSelect allLabel={text.filterAll} id="audit-type" name="type" label={text.auditTargetType} value={query.type ?? ""} options={AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: text.auditTargets[type] }))} />
        <div>
          <label htmlFor="audit-target" className="field-label">
            {text.auditTargetId}
          </label>
          <input id="audit-target" name="target" defaultValue={query.target ?? ""} maxLength={100} className="field-input" />
        </div>
        <div className="sm:col-span-2">
          <button type="submit" className="btn-secondary min-h-11">
            {text.filterSubmit}
          </button>
        </div>
      </Form>
      {rows.length === 0 ? (
        <p className="text-slate-600">{text.auditEmpty}</p>
      ) : (
        <ol className="space-y-2" data-testid="audit-rows">
          {rows.map((row) => (
            <li key={row.id} className="rounded-xl bg-white p-3 text-sm shadow-sm ring-1 ring-slate-200">
              <p className="flex flex-wrap gap-x-3">
                <span>{row.at}</span>
                <span className="font-semibold">{text.auditKinds[row.kind]}</span>
                <span className="break-all">{row.operator_label}</span>
              </p>
              <p className="mt-1 break-all">
                {text.auditOn}: {text.auditTargets[row.target_type]}{" "}
                {row.target_type === "user" ? (
                  <Link to={`/admin/users/${row.target_id}`} className="text-brand-700 underline">
                    {row.target_id}
                  </Link>
                ) : (
                  row.target_id
                )}
              </p>
              {row.reason ? <p className="mt-1 whitespace-pre-wrap break-words">{text.auditWhy}: {row.reason}</p> : null}
              <p className="mt-1 font-mono text-xs break-all text-slate-600">{row.details}</p>
            </li>
          ))}
        </ol>
      )}
      <p className="flex flex-wrap gap-3">
        {query.before !== undefined ? (
          <Link to="/admin/audit" className="btn-secondary min-h-11">
            {text.auditNewest}
          </Link>
        ) : null}
        {olderHref ? (
          <Link to={olderHref} className="btn-secondary min-h-11">
            {text.auditOlder}
          </Link>
        ) : null}
      </p>
    </section>
  );
}
