import { Outlet } from "@remix-run/react";
import { SiteChrome } from "~/components/site-chrome";

/** Chat fills the screen under the header (and above a phone's bar): no footer, the conversation scrolls on its own. */
export default function ChatLayout() {
  return (
    <SiteChrome footer={false}>
      <div className="chat-screen mx-auto flex max-w-6xl">
        <Outlet />
      </div>
    </SiteChrome>
  );
}
