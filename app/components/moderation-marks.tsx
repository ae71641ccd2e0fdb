import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { ReportTargetType } from "~/lib/constants/moderation";
import * as hidden from "~/lib/messages/hidden";
import * as text from "~/lib/messages/report-link";

/** The report page of a thing, coming back to `redirectTo` afterwards. */
export const reportPath = (type: ReportTargetType, id: string, redirectTo?: string) =>
  `/report?${new URLSearchParams({ type, id, ...(redirectTo ? { redirectTo } : {}) })}`;

/**
 * 「通報する」 (docs/product.md#trust-and-safety): a plain link to the /report page, which works without JavaScript and signed out (the page
 * asks to sign in first and comes back). For a signed-in member, ReportDialogHost (loaded with the members' overlays)
 * opens the report dialog instead, so the dialog's code is no part of the pages that only show the link, nor of any
 * page a visitor who is signed out loads (README "Page weight"). `ownerName` names it for a screen reader where
 * several share a page (「〇〇さんの投稿を通報する」).
 */
export function ReportLink({
  type,
  id,
  ownerName,
  className = "rounded-md px-2 py-1 text-xs text-slate-600 hover:bg-slate-100 hover:text-slate-900",
  children = text.action,
}: {
  type: ReportTargetType;
  id: string;
  ownerName?: string;
  className?: string;
  children?: ReactNode;
}) {
  const location = useLocation();
  return (
    <Link
      to={reportPath(type, id, location.pathname + location.search)}
      className={className}
      aria-label={ownerName ? text.label(type, ownerName) : undefined}
      aria-haspopup="dialog"
      data-report-type={type}
      data-report-id={id}
    >
      {children}
    </Link>
  );
}

/**
 * The mark on a post, message, listing or review the operators hid (docs/product.md#trust-and-safety), which only its author is shown.
 * Words, not only a colour, and a sentence for screen readers that nobody else sees it. It lives beside ReportLink:
 * the two go on the same cards, and one small file weighs less than two (README "Page weight").
 */
export function HiddenBadge({ className = "" }: { className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-200 ${className}`}
      data-testid="hidden-badge"
    >
      <span aria-hidden="true">⚠</span>
      {hidden.badge}
      <span className="sr-only">（{hidden.explanation}）</span>
    </span>
  );
}
