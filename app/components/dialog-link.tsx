import { Link } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";

/**
 * A link to a dialog's page twin that, once JavaScript runs, opens the dialog instead (docs/architecture.md: a dialog that
 * must work without JavaScript is the enhanced view of a page). A modified click (new tab) still follows the link.
 */
export function DialogLink({ to, onOpen, className, label, children }: { to: string; onOpen: () => void; className: string; label?: string; children: ReactNode }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onOpen();
  };
  return (
    <Link to={to} className={className} onClick={onClick} aria-haspopup="dialog" aria-label={label}>
      {children}
    </Link>
  );
}
