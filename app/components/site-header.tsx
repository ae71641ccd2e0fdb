import { Link, NavLink } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/constants/site";
import { CoinBalanceButton } from "./coin-purchase";
import { NotificationBell } from "./notification-bell";
import { PhoneMenu } from "./phone-nav";
import type { Viewer } from "./root-data";
import { SignOutButton } from "./sign-out-button";
import { UnreadChatBadge } from "./unread-chat-badge";

// From 640 px the header holds the section links; below, the phone bar and the header's menu do (phone-nav.tsx).
// `from`: shown only from that width, so the signed-in header fits at 640 and 1024 px; below it the logo is the way
// home, the home page links every section (さがす, フィード, ゲーム, イベント) and サポート is in the footer.
const shownFrom = { lg: "hidden lg:inline-flex", xl: "hidden xl:inline-flex" } as const;
const navItems = [
  { to: "/", label: "ホーム", end: true, from: "lg" },
  { to: "/explore", label: "さがす", end: false, from: null },
  { to: "/feed", label: "フィード", end: false, from: null },
  { to: "/games", label: "ゲーム", end: false, from: "lg" },
  { to: "/events", label: "イベント", end: false, from: null },
  { to: "/support", label: "サポート", end: false, from: "xl" },
];

const navClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-1.5 py-2 font-medium lg:px-3 ${isActive ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100"}`;

/** `viewer` is null when signed out, and when the root loader itself failed (the error page still gets a header). */
export function SiteHeader({ viewer, unreadChat }: { viewer: Viewer | null; unreadChat: number }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-3 sm:gap-4 sm:px-4">
        {/* Named by its content, 「GamerMatch ホーム」, not by aria-label: on a phone the visible text is the short
            mark, which an aria-label would have to start with (axe label-content-name-mismatch). */}
        <Link to="/" className="shrink-0 text-base font-extrabold tracking-tight text-brand-700 sm:text-lg">
          {/* On a phone the short mark leaves room for a six-digit coin balance beside the signed-in links. */}
          <span aria-hidden="true" className="rounded-md bg-brand-600 px-1.5 py-1 text-sm text-white md:hidden">
            GM
          </span>
          <span className="sr-only md:not-sr-only">{PRODUCT_NAME}</span> <span className="sr-only">ホーム</span>
        </Link>
        <nav aria-label="メインメニュー" className="hidden items-center gap-1 text-sm sm:flex">
          {navItems.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className={(state) => `${navClass(state)} ${item.from ? shownFrom[item.from as keyof typeof shownFrom] : ""}`}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-0.5 text-sm sm:gap-1">
          {viewer ? (
            <>
              <CoinBalanceButton
                className="inline-flex items-center gap-1 rounded-md px-1.5 py-2 font-semibold whitespace-nowrap text-slate-700 hover:bg-slate-100 sm:px-2"
                initialBalance={viewer.coinBalance}
              />
              <NotificationBell
                className="inline-flex items-center whitespace-nowrap rounded-md px-1.5 py-2 text-slate-600 hover:bg-slate-100 sm:px-2"
                initialCount={viewer.unreadNotifications}
              />
              {/* On a phone these two are in the bar at the bottom. */}
              <NavLink to="/chat" className={(state) => `${navClass(state)} hidden sm:inline-flex`}>
                チャット
                <UnreadChatBadge count={unreadChat} className="ml-1" />
              </NavLink>
              <NavLink to="/mypage" className={(state) => `${navClass(state)} hidden sm:inline-flex`}>
                マイページ
              </NavLink>
              {/* Below 1024 px, sign-out is on /settings (linked from マイページ). */}
              <SignOutButton className="hidden rounded-md px-3 py-2 font-medium whitespace-nowrap text-slate-600 hover:bg-slate-100 lg:inline-flex" />
            </>
          ) : (
            <>
              <NavLink to="/login" className={(state) => `${navClass(state)} hidden sm:inline-flex`}>
                ログイン
              </NavLink>
              <Link to="/signup" className="btn-primary min-h-9 px-3">
                新規登録
              </Link>
            </>
          )}
          <PhoneMenu signedIn={viewer !== null} />
        </div>
      </div>
    </header>
  );
}
