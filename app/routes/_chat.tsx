import { Outlet } from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SiteChrome } from "~/components/site-chrome";

/** Chat fills the screen under the header (and above a phone's bar): no footer, the conversation scrolls on its own. */
export default function ChatLayout({ children = <Outlet /> }: { children?: ReactNode }) {
  return (
    <SiteChrome footer={false}>
      <div data-layout="chat" className="chat-screen mx-auto flex max-w-6xl">
        {children}
      </div>
    </SiteChrome>
  );
}

/** A page of this layout that failed (a 404, a 500) shows its error inside the layout, its navigation usable (ADR 057). */
export function ErrorBoundary() {
  return (
    <ChatLayout>
      <GeneralErrorBoundary />
    </ChatLayout>
  );
}
