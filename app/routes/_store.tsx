import { Outlet } from "@remix-run/react";
import { SiteChrome } from "~/components/site-chrome";

/** Pages where coins change hands (registration, transfer, plans): a focused, narrow panel. */
export default function StoreLayout() {
  return (
    <SiteChrome>
      <div className="mx-auto max-w-2xl px-4 py-8">
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <Outlet />
        </div>
      </div>
    </SiteChrome>
  );
}
