import { Outlet } from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SiteChrome } from "~/components/site-chrome";

/** Pages where coins change hands (registration, transfer, plans): a focused, narrow panel. */
export default function StoreLayout({ children = <Outlet /> }: { children?: ReactNode }) {
  return (
    <SiteChrome>
      <div data-layout="store" className="mx-auto max-w-2xl px-4 py-8">
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          {children}
        </div>
      </div>
    </SiteChrome>
  );
}

/** A page of this layout that failed (a 404, a 500) shows its error inside the layout, its navigation usable (ADR 057). */
export function ErrorBoundary() {
  return (
    <StoreLayout>
      <GeneralErrorBoundary />
    </StoreLayout>
  );
}
