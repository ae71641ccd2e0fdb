import { NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { NavIcon, type NavIconName } from "./nav-icon";
import { SignOutButton } from "./sign-out-button";
import { UnreadChatBadge } from "./unread-chat-badge";

// A phone's way around: below 640 px the header's section links give way to a bar at the bottom of the
// screen with the five places a gamer goes most, and a menu in the header with the rest. Plain links and a <details>:
// both work before the scripts have loaded, and without them.

type Destination = { to: string; label: string; icon: NavIconName };

const barFor = {
  member: [
    { to: "/", label: "ホーム", icon: "home" },
    { to: "/explore", label: "さがす", icon: "search" },
    { to: "/tickets", label: "チケット", icon: "ticket" },
    { to: "/chat", label: "チャット", icon: "chat" },
    { to: "/mypage", label: "マイページ", icon: "user" },
  ],
  visitor: [
    { to: "/", label: "ホーム", icon: "home" },
    { to: "/explore", label: "さがす", icon: "search" },
    { to: "/feed", label: "フィード", icon: "feed" },
    { to: "/login", label: "ログイン", icon: "login" },
  ],
} satisfies Record<string, Destination[]>;

const menuFor = {
  member: [
    { to: "/feed", label: "フィード" },
    { to: "/games", label: "ゲーム" },
    { to: "/events", label: "イベント" },
    { to: "/coins", label: "コイン" },
    { to: "/settings", label: "設定" },
    { to: "/support", label: "サポート" },
  ],
  visitor: [
    { to: "/tickets", label: "チケット" },
    { to: "/games", label: "ゲーム" },
    { to: "/events", label: "イベント" },
    { to: "/coins", label: "コイン" },
    { to: "/support", label: "サポート" },
  ],
};

/**
 * The bar fixed to the bottom of a phone's screen, above the home indicator's safe area; SiteChrome pads pages by its
 * height (--phone-nav-height in app.css), and it steps aside while a chat composer has focus. The current section is
 * marked aria-current="page" by NavLink.
 */
export function PhoneNavBar({ signedIn, unreadChat }: { signedIn: boolean; unreadChat: number }) {
  return (
    <nav aria-label="メインメニュー" data-phone-nav="" className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 pr-[env(safe-area-inset-right)] pb-[env(safe-area-inset-bottom)] pl-[env(safe-area-inset-left)] backdrop-blur sm:hidden">
      <ul className="mx-auto flex max-w-md">
        {barFor[signedIn ? "member" : "visitor"].map((item) => (
          <li key={item.to} className="flex-1">
            <NavLink
              to={item.to}
              end={item.to === "/"}
              className={({ isActive }) =>
                `flex h-14 flex-col items-center justify-center gap-0.5 text-[11px] leading-tight ${isActive ? "font-bold text-brand-700" : "font-medium text-slate-600"}`
              }
            >
              <span className="relative">
                <NavIcon name={item.icon} />
                {item.to === "/chat" ? <UnreadChatBadge count={unreadChat} className="absolute -top-1.5 left-4" /> : null}
              </span>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The header's menu on a phone: every section the bar leaves out, and sign-out, one tap away. A <details>, so it
 * opens without JavaScript; with it, the menu also closes on a navigation, a tap outside it and Escape.
 */
export function PhoneMenu({ signedIn }: { signedIn: boolean }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [key]);
  useEffect(() => {
    const close = (event: PointerEvent | KeyboardEvent) => {
      const details = menu.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key !== "Escape" : details.contains(event.target as Node)) return;
      details.open = false;
      if (event instanceof KeyboardEvent) details.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);

  return (
    <details ref={menu} className="group relative sm:hidden">
      <summary className="flex size-11 cursor-pointer list-none items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 group-open:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <NavIcon name="menu" />
        <span className="sr-only">メニュー</span>
      </summary>
      <nav aria-label="その他のメニュー" className="absolute top-full right-0 z-40 mt-1 w-52 rounded-xl bg-white p-1 shadow-lg ring-1 ring-slate-200">
        <ul>
          {menuFor[signedIn ? "member" : "visitor"].map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={({ isActive }) => `flex min-h-11 items-center rounded-lg px-3 text-sm ${isActive ? "bg-brand-50 font-bold text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}>
                {item.label}
              </NavLink>
            </li>
          ))}
          {signedIn ? (
            <li className="mt-1 border-t border-slate-100 pt-1">
              <SignOutButton className="flex min-h-11 w-full items-center rounded-lg px-3 text-left text-sm text-slate-700 hover:bg-slate-100" />
            </li>
          ) : null}
        </ul>
      </nav>
    </details>
  );
}
