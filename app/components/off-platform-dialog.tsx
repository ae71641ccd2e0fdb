import { useEffect, useRef } from "react";
import * as text from "~/lib/messages/off-platform";
import { OffPlatformNotice } from "./off-platform-warning";

/**
 * The off-platform payment warning before sending (docs/product.md#trust-and-safety), with JavaScript: a modal alert dialog over the
 * composer or the post dialog, 「やめる」 focused first (the safe choice), Escape cancels. Rendered while there is a
 * text waiting for the answer; the caller sends it with the confirmation on `onConfirm`. A module of its own, so that
 * a page can load it when a warning is due (the chat room does: its first-load budget, ADR 024) while the notice, which
 * a plain form's page twin shows, stays in the page.
 */
export function OffPlatformWarningDialog({ content, onConfirm, onCancel }: { content: string; onConfirm: () => void; onCancel: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const confirmed = useRef(false);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-labelledby="off-platform-title"
      aria-describedby="off-platform-body"
      onClose={() => (confirmed.current ? onConfirm() : onCancel())}
      className="m-auto w-[min(30rem,calc(100%-1.5rem))] rounded-2xl bg-white p-0 shadow-xl backdrop:bg-slate-900/50"
      data-testid="off-platform-warning"
    >
      <div className="space-y-4 p-4 sm:p-6">
        <OffPlatformNotice content={content} />
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" autoFocus className="rounded-md px-4 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100" onClick={() => dialog.current?.close()}>
            {text.cancel}
          </button>
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              confirmed.current = true;
              dialog.current?.close();
            }}
          >
            {text.confirm}
          </button>
        </div>
      </div>
    </dialog>
  );
}
