import { Outlet } from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SiteChrome } from "~/components/site-chrome";

/** The default layout: header, a centred content column, footer. */
export default function DefaultLayout({ children = <Outlet /> }: { children?: ReactNode }) {
  return (
    <SiteChrome>
      <div data-layout="default" className="mx-auto max-w-5xl px-4 py-8">
        {children}
      </div>
    </SiteChrome>
  );
}

/** A page of this layout that failed (a 404, a 500) shows its error inside the layout, its navigation usable (ADR 057). */
export function ErrorBoundary() {
  return (
    <DefaultLayout>
      <GeneralErrorBoundary />
    </DefaultLayout>
  );
}
