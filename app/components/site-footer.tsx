import { Link } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/constants/site";

export const documentationLinks = [
  { to: "/support", label: "よくある質問・サポート" },
  { to: "/terms", label: "利用規約" },
  { to: "/privacy", label: "プライバシーポリシー" },
  { to: "/transaction-act", label: "特定商取引法に基づく表記" },
  { to: "/inquiry", label: "お問い合わせ" },
] as const;

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <nav aria-label="サイト情報">
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {documentationLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:text-brand-700 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p>© {PRODUCT_NAME}</p>
      </div>
    </footer>
  );
}
