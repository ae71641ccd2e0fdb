import { Outlet } from "@remix-run/react";
import { SiteChrome } from "~/components/site-chrome";

/** A person's pages (their profile, their schedule, profile editing): one narrow column. */
export default function ProfileLayout() {
  return (
    <SiteChrome>
      <div className="mx-auto max-w-3xl px-4 py-8">
        <Outlet />
      </div>
    </SiteChrome>
  );
}
