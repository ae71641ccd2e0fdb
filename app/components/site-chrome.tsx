import type { ReactNode } from "react";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/** Header, main landmark and (unless a layout fills the screen) footer around a layout's content. */
export function SiteChrome({ children, footer = true }: { children: ReactNode; footer?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        本文へスキップ
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      {footer ? <SiteFooter /> : null}
    </div>
  );
}
