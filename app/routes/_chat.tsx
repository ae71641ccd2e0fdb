import { Outlet } from "@remix-run/react";
import { SiteChrome } from "~/components/site-chrome";

/** Chat fills the screen under the header: no footer, the conversation scrolls on its own. */
export default function ChatLayout() {
  return (
    <SiteChrome footer={false}>
      <div className="mx-auto flex h-[calc(100dvh-3.5rem)] max-w-6xl">
        <Outlet />
      </div>
    </SiteChrome>
  );
}
