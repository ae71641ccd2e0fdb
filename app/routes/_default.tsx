import { Outlet } from "@remix-run/react";
import { SiteChrome } from "~/components/site-chrome";

/** The default layout: header, a centred content column, footer. */
export default function DefaultLayout() {
  return (
    <SiteChrome>
      <div className="mx-auto max-w-5xl px-4 py-8">
        <Outlet />
      </div>
    </SiteChrome>
  );
}
