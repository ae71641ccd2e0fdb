import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { deskRefusesPosts, requireOperator } from "~/http/desk.server";
import { personState } from "~/http/desk-view.server";
import { DESK_PAGES } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import { deskMeta } from "~/lib/desk-meta";
import { parseQuery } from "~/lib/params";
import { userSearchQuerySchema } from "~/lib/validation/desk";
import { searchPeople } from "~/models/desk-people.server";

export const meta: MetaFunction = () => deskMeta(text.usersTitle);

/** /admin/users?q=… (ADR 071): members found by address, display name or id, a GET form without JavaScript. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, DESK_PAGES.users.roles);
  const { q } = parseQuery(userSearchQuerySchema, request);
  const people = q ? await searchPeople({ db: context.db, q }) : null;
  return { q: q ?? "", people: people?.map((person) => ({ id: person.id, displayName: person.displayName, email: person.email, state: personState(person) })) ?? null };
}

/** Nothing is posted here (ADR 071). */
export const action = deskRefusesPosts;

export default function DeskUsers() {
  const { q, people } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="users-title" className="space-y-4">
      <div>
        <h1 id="users-title" className="text-2xl font-bold">
          {text.usersTitle}
        </h1>
        <p className="mt-1 text-slate-600">{text.usersLead}</p>
      </div>
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
        <div className="min-w-0 flex-1">
          <label htmlFor="users-q" className="block text-sm font-semibold">
            {text.searchLabel}
          </label>
          <input id="users-q" name="q" type="search" defaultValue={q} maxLength={200} className="mt-1 min-h-11 w-full rounded-lg border border-slate-300 px-2" />
        </div>
        <button type="submit" className="btn-primary min-h-11">
          {text.searchSubmit}
        </button>
      </Form>
      {people === null ? null : people.length === 0 ? (
        <p className="text-slate-600">{text.searchEmpty}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200" data-testid="people">
          {people.map((person) => (
            <li key={person.id} className="p-3">
              <Link to={`/admin/users/${person.id}`} className="font-semibold text-brand-700 underline break-words">
                {person.displayName}
              </Link>
              <span className="ml-2 text-sm text-slate-600 break-all">{person.email ?? text.noEmail}</span>
              <span className="ml-2 text-sm">{person.state}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
