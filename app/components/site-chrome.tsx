import type { ReactNode } from "react";
import { PhoneNavBar } from "./phone-nav";
import { useRootData } from "./root-data";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";
import { useUnreadChatCount } from "./unread-chat-badge";

/**
 * Header, main landmark, (unless a layout fills the screen) footer, and on a phone the navigation bar, around a
 * layout's content. Pages are padded at the bottom by the bar's height (--phone-nav-height), so it covers nothing.
 */
export function SiteChrome({ children, footer = true }: { children: ReactNode; footer?: boolean }) {
  // Absent when the root loader itself failed: the error page gets the signed-out chrome.
  const viewer = useRootData()?.viewer ?? null;
  // Read once for the header's チャット and the bar's.
  const unreadChat = useUnreadChatCount();
  return (
    <div className="flex min-h-dvh flex-col pb-(--phone-nav-height)">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        本文へスキップ
      </a>
      <SiteHeader viewer={viewer} unreadChat={unreadChat} />
      <main id="main" className="flex-1">
        {children}
      </main>
      {footer ? <SiteFooter /> : null}
      <PhoneNavBar signedIn={viewer !== null} unreadChat={unreadChat} />
    </div>
  );
}
