import { NavLink, Outlet } from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SiteChrome } from "~/components/site-chrome";
import { documentationLinks } from "~/components/site-footer";

/** Support and legal pages: a side menu of all of them beside the document. */
export default function DocumentationLayout({ children = <Outlet /> }: { children?: ReactNode }) {
  return (
    <SiteChrome>
      <div data-layout="documentation" className="mx-auto grid max-w-6xl gap-8 px-4 py-8 md:grid-cols-[14rem_1fr]">
        <nav aria-label="サポートと規約" className="md:sticky md:top-20 md:self-start">
          <ul className="flex gap-2 overflow-x-auto text-sm md:flex-col md:gap-1">
            {documentationLinks.map((link) => (
              <li key={link.to} className="shrink-0">
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    `block rounded-md px-3 py-2 ${isActive ? "bg-brand-50 font-semibold text-brand-700" : "text-slate-600 hover:bg-slate-100"}`
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <article className="min-w-0 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          {children}
        </article>
      </div>
    </SiteChrome>
  );
}

/** A page of this layout that failed (a 404, a 500) shows its error inside the layout, its navigation usable (ADR 057). */
export function ErrorBoundary() {
  return (
    <DocumentationLayout>
      <GeneralErrorBoundary />
    </DocumentationLayout>
  );
}
