import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { DeskNav } from "~/components/desk-nav";
import { useRealtimeEvent } from "~/components/realtime-provider";
import { deskRefusesPosts, requireOperator } from "~/http/desk.server";
import { ANY_OPERATOR, DESK_PAGES, DESK_REPORTS_EVENT, deskPagesFor, rolesAllow } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import { deskMeta } from "~/lib/desk-meta";
import { countOpenReportTargets } from "~/models/moderation-queue.server";

export const meta: MetaFunction = () => deskMeta(text.title);

/**
 * The operators' desk's frame (/admin, ADR 071), inside the default layout: the operator's navigation above the page.
 * It has no error boundary of its own: a 404 (the guard's, or a page's) is the default layout's, the page of any
 * unknown path, so nothing tells a visitor the desk is here. Each page guards itself too (loaders run in parallel). The
 * open reports' count in the navigation follows the desk's realtime channel, which only operators' sockets join.
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
  const [live, setLive] = useState(openReports);
  // A fresh loader count is the truth; between loads, the count the server sends to the operators' channel.
  useEffect(() => setLive(openReports), [openReports]);
  useRealtimeEvent<{ openReports: number }>(DESK_REPORTS_EVENT, (payload) => {
    if (openReports !== null && Number.isSafeInteger(payload?.openReports)) setLive(payload.openReports);
  });
  return (
    <div data-layout="desk">
      <DeskNav pages={pages} openReports={live} />
      <Outlet />
    </div>
  );
}
