import type { KeyboardEvent, ReactNode } from "react";
import { useEffect, useRef } from "react";

/**
 * A list's filters on a phone: below 640 px they fold behind 「絞り込み（n）」, n the filters in use, so the
 * results come first; from 640 px the toggle is hidden and the filters show as they always did. The toggle is a
 * <details> holding only its <summary>, and the panel is its next sibling, hidden while the toggle is closed: so it
 * opens without JavaScript, and CSS alone shows it on a wider screen. The fields stay in the page's GET form whether
 * the panel is open or not, so a keyword search keeps the filters. With JavaScript, Escape closes it (focus back on
 * the toggle).
 *
 * Closed on every page load, filters in use or not, and closed when its form is sent: a search is sent from the open
 * panel, and its answer should show the results it asked for (the count says the filters are there), as a phone app's
 * filter sheet closes on 「適用」. `open`/`onOpenChange` let a page whose form remounts with each search (explore, where
 * a changed choice searches at once) keep the panel open while choices are made.
 */
export function FilterPanel({
  id,
  count,
  detail,
  open,
  onOpenChange,
  className = "",
  children,
}: {
  id: string;
  /** The filters in use among those in the panel. */
  count: number;
  /** Said after the count, smaller: what else the panel holds that is not a filter (a chosen order). */
  detail?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The panel's layout, below 640 px while it is open and always from 640 px. */
  className?: string;
  children: ReactNode;
}) {
  const toggle = useRef<HTMLDetailsElement>(null);
  // A search sent (the panel's button, the keyword's Enter): its answer is the results, so the panel folds away and,
  // sent from the open panel, the page goes back to its top, as it does without JavaScript when the new page loads.
  useEffect(() => {
    const details = toggle.current;
    const form = details?.closest("form");
    if (!details || !form) return;
    const close = () => {
      if (details.open) window.scrollTo(0, 0);
      details.open = false;
      // Said at once too: the toggle event comes a task later, when a remounting form may have dropped this element.
      onOpenChange?.(false);
    };
    form.addEventListener("submit", close);
    return () => form.removeEventListener("submit", close);
  }, [onOpenChange]);
  const closeOnEscape = (event: KeyboardEvent) => {
    const details = toggle.current;
    if (event.key !== "Escape" || !details?.open || window.matchMedia("(min-width: 40rem)").matches) return;
    event.preventDefault();
    details.open = false;
    details.querySelector("summary")?.focus();
  };
  return (
    <>
      <details ref={toggle} open={open} onToggle={onOpenChange ? (event) => onOpenChange(event.currentTarget.open) : undefined} onKeyDown={closeOnEscape} className="group peer sm:hidden">
        <summary
          aria-controls={id}
          className="btn-secondary w-full cursor-pointer list-none justify-between group-open:border-brand-500 group-open:bg-brand-50 [&::-webkit-details-marker]:hidden"
        >
          <span className="flex min-w-0 items-baseline gap-2">
            <span>絞り込み{count > 0 ? `（${count}）` : ""}</span>
            {detail ? <span className="truncate text-xs font-normal text-slate-600">{detail}</span> : null}
          </span>
          <span aria-hidden="true" className="text-slate-500 transition-transform group-open:rotate-180">
            ▾
          </span>
        </summary>
      </details>
      {/* Not a landmark or a dialog: the part of the form the toggle shows, read next after it. */}
      <div id={id} onKeyDown={closeOnEscape} className={`max-sm:[.peer:not([open])~&]:hidden ${className}`}>
        {children}
      </div>
    </>
  );
}
