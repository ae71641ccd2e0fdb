import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { ReportTargetType } from "~/lib/constants/moderation";

const ReportDialog = lazy(() => import("./report-dialog-body"));

/**
 * Turns every 「通報する」 link (ReportLink: `data-report-type`, `data-report-id`) into the report dialog for a signed-in
 * member; a modified click (new tab) still follows the link. It listens before the app's router, so the link's
 * navigation is prevented, and gives the focus back to the link when the dialog closes.
 */
export function ReportDialogHost() {
  const [open, setOpen] = useState<{ target: { type: ReportTargetType; id: string }; opener: HTMLElement } | null>(null);
  // The link to focus once the dialog is gone: not before, while the modal dialog makes the page behind it inert.
  const returnFocus = useRef<{ target: { type: ReportTargetType; id: string }; opener: HTMLElement } | null>(null);
  useEffect(() => {
    if (open || !returnFocus.current) return;
    const { target, opener } = returnFocus.current;
    returnFocus.current = null;
    // The page may have rendered the link again meanwhile (the report revalidates it): then the one now there.
    const link = opener.isConnected ? opener : document.querySelector<HTMLElement>(`a[data-report-type="${target.type}"][data-report-id="${CSS.escape(target.id)}"]`);
    link?.focus();
  }, [open]);
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
      const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>("a[data-report-type][data-report-id]");
      if (!link) return;
      event.preventDefault();
      setOpen({ target: { type: link.dataset.reportType as ReportTargetType, id: link.dataset.reportId! }, opener: link });
    };
    window.addEventListener("click", onClick, { capture: true });
    // Until now a click follows the link to the /report page, which works as well; tests wait for this mark.
    document.documentElement.dataset.reportDialogs = "ready";
    return () => {
      window.removeEventListener("click", onClick, { capture: true });
      delete document.documentElement.dataset.reportDialogs;
    };
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ReportDialog
        key={`${open.target.type}:${open.target.id}`}
        target={open.target}
        onClose={() => {
          returnFocus.current = open;
          setOpen(null);
        }}
      />
    </Suspense>
  );
}
