import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { deskRefusesPosts, requireOperator } from "~/http/desk.server";
import { FilterSelect } from "~/components/filter-select";
import { INQUIRY_STATUSES } from "~/lib/constants";
import { DESK_PAGES } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import * as inquiryText from "~/lib/messages/desk-inquiries";
import { categoryLabel, inquiryStatusClass, inquiryStatusLabel } from "~/lib/inquiries";
import { deskMeta } from "~/lib/desk-meta";
import { parseQuery } from "~/lib/params";
import { formatDateTime } from "~/lib/time";
import { inquiryQuerySchema } from "~/lib/validation/desk-inquiries";
import { countInquiries, listInquiries } from "~/models/inquiry-desk.server";

export const meta: MetaFunction = () => deskMeta(text.pageLabels.inquiries);

/**
 * The inquiries queue (/admin/inquiries, ADR 072; moderator and admin): open inquiries first, each status oldest
 * first, narrowed by a status with a GET form, pages of INQUIRY_DESK_PAGE.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, DESK_PAGES.inquiries.roles);
  const { status, page } = parseQuery(inquiryQuerySchema, request);
  const [{ inquiries, more }, counts] = await Promise.all([listInquiries({ db: context.db, status, page }), countInquiries({ db: context.db })]);
  return { inquiries, more, counts, status: status ?? null, page };
}


/** The queue takes no posts (an inquiry's page does): the 404 of an unknown path, as the desk's other read-only pages. */
export const action = deskRefusesPosts;

/** A page of the queue, with the status filter kept. */
const pageLink = (status: string | null, page: number) => `${DESK_PAGES.inquiries.path}?${new URLSearchParams({ ...(status ? { status } : {}), ...(page > 0 ? { page: String(page) } : {}) })}`;

export default function DeskInquiriesPage() {
  const { inquiries, more, counts, status, page } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="desk-inquiries-title" className="space-y-4">
      <div>
        <h1 id="desk-inquiries-title" className="text-2xl font-bold">
          {text.pageLabels.inquiries}
        </h1>
        <p className="mt-1 text-sm text-slate-600">{inquiryText.lead}</p>
      </div>
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <FilterSelect allLabel={text.filterAll}
          id="inquiry-status"
          name="status"
          label={inquiryText.filterLabel}
          value={status ?? ""}
          options={INQUIRY_STATUSES.map((option) => ({ value: option.value, label: `${option.label}（${counts[option.value]}件）` }))}
        />
        <button type="submit" className="btn-secondary min-h-11">
          {inquiryText.filter}
        </button>
      </Form>
      {inquiries.length === 0 ? (
        <p className="rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">{inquiryText.empty}</p>
      ) : (
        <ul className="space-y-2" aria-label={inquiryText.listLabel}>
          {inquiries.map((inquiry) => (
            <li key={inquiry.id}>
              <Link to={`${DESK_PAGES.inquiries.path}/${inquiry.id}`} className="block rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500" data-testid="desk-inquiry">
                <span className="flex flex-wrap items-center gap-2 text-sm">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${inquiryStatusClass[inquiry.status]}`}>{inquiryStatusLabel(inquiry.status)}</span>
                  <span className="text-slate-700">{formatDateTime(inquiry.createdAt)}</span>
                  <span className="text-slate-700">{categoryLabel(inquiry.category)}</span>
                </span>
                <span className="mt-1 block font-semibold text-brand-700">
                  {inquiry.name}（{inquiry.email}）
                </span>
                <span className="mt-1 line-clamp-2 block break-words text-sm text-slate-800">{inquiry.body}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label={inquiryText.pages} className="flex gap-4 text-sm">
        {page > 0 ? (
          <Link to={pageLink(status, page - 1)} className="text-brand-700 underline">
            {inquiryText.previous}
          </Link>
        ) : null}
        {more ? (
          <Link to={pageLink(status, page + 1)} className="text-brand-700 underline">
            {inquiryText.next}
          </Link>
        ) : null}
      </nav>
    </section>
  );
}
