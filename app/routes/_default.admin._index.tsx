import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { deskRefusesPosts, requireOperator } from "~/http/desk.server";
import { ANY_OPERATOR, DESK_PAGES, deskPagesFor } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import { deskMeta } from "~/lib/desk-meta";

export const meta: MetaFunction = () => deskMeta(text.title);

/** The desk's index: the operator's roles and a card per page they may open. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { roles } = await requireOperator(request, context, ANY_OPERATOR);
  return { roles, pages: deskPagesFor(roles) };
}

/** Nothing is posted here (ADR 071). */
export const action = deskRefusesPosts;

export default function DeskIndex() {
  const { roles, pages } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="desk-title" className="space-y-6">
      <div>
        <h1 id="desk-title" className="text-2xl font-bold">
          {text.title}
        </h1>
        <p className="mt-1 text-slate-600">{text.indexLead}</p>
        <p className="mt-2 text-sm">
          {text.yourRoles}: {roles.map((role) => text.roleLabels[role]).join("・")}
        </p>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2">
        {pages.map((page) => (
          <li key={page}>
            <Link to={DESK_PAGES[page].path} className="block rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500">
              <span className="font-semibold text-brand-700">{text.pageLabels[page]}</span>
              <span className="mt-1 block text-sm text-slate-600">{text.pageLeads[page]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
