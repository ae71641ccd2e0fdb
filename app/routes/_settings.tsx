import { Outlet } from "@remix-run/react";
import { SiteChrome } from "~/components/site-chrome";

/** Account settings pages. */
export default function SettingsLayout() {
  return (
    <SiteChrome>
      <div className="mx-auto max-w-4xl px-4 py-8">
        <Outlet />
      </div>
    </SiteChrome>
  );
}
