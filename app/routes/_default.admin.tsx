import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { DeskNav } from "~/components/desk-nav";
import { deskRefusesPosts, requireOperator } from "~/http/desk.server";
import { ANY_OPERATOR, DESK_PAGES, deskPagesFor, rolesAllow } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import { deskMeta } from "~/lib/meta";
import { countOpenReportTargets } from "~/models/moderation-queue.server";

export const meta: MetaFunction = () => deskMeta(text.title);

/**
 * The operators' desk's frame (/admin, ADR 071), inside the default layout: the operator's navigation above the page.
 * It has no error boundary of its own: a 404 (the guard's, or a page's) is the default layout's, the page of any
 * unknown path, so nothing tells a visitor the desk is here. Each page guards itself too (loaders run in parallel).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { roles } = await requireOperator(request, context, ANY_OPERATOR);
  const openReports = rolesAllow(roles, DESK_PAGES.reports.roles) ? await countOpenReportTargets({ db: context.db }) : null;
  return { roles, pages: deskPagesFor(roles), openReports };
}

/** Nothing is posted here (ADR 071). */
export const action = deskRefusesPosts;

export default function DeskLayout() {
  const { pages, openReports } = useLoaderData<typeof loader>();
  return (
    <div data-layout="desk">
      <DeskNav pages={pages} openReports={openReports} />
      <Outlet />
    </div>
  );
}
