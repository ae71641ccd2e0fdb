import { Link, NavLink } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/constants";

const navItems = [
  { to: "/", label: "ホーム", end: true },
  { to: "/support", label: "サポート", end: false },
];

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-4">
        <Link to="/" className="text-lg font-extrabold tracking-tight text-brand-700" aria-label={`${PRODUCT_NAME} ホーム`}>
          {PRODUCT_NAME}
        </Link>
        <nav aria-label="メインメニュー" className="flex items-center gap-1 text-sm">
          {navItems.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                `rounded-md px-3 py-2 font-medium ${isActive ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100"}`
              }
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
      </div>
    </header>
  );
}
