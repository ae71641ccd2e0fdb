import { NavLink } from "@remix-run/react";
import { DESK_PAGES, type DeskPage } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";

/**
 * The desk's navigation (ADR 071): the operator's pages only, as wrapping links that fit a 360 px screen, the open
 * reports' count beside レポート.
 */
export function DeskNav({ pages, openReports }: { pages: readonly DeskPage[]; openReports: number | null }) {
  return (
    <nav aria-label={text.navLabel} className="mb-6 border-b border-slate-200 pb-3">
      <ul className="flex flex-wrap gap-2">
        <li>
          <NavLink to="/admin" end className={linkClass}>
            {text.title}
          </NavLink>
        </li>
        {pages.map((page) => (
          <li key={page}>
            <NavLink to={DESK_PAGES[page].path} className={linkClass}>
              {text.pageLabels[page]}
              {page === "reports" && openReports !== null ? (
                <span data-testid="desk-open-reports" className="ml-1.5 rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white" aria-label={text.openReports(openReports)}>
                  {openReports}
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold ${isActive ? "bg-brand-700 text-white" : "bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50"}`;
