import { useEffect, useRef, type ReactNode } from "react";
import * as text from "~/lib/messages/off-platform";

/**
 * The off-platform payment warning before sending (docs/product.md#trust-and-safety), with JavaScript: a modal alert dialog over the
 * composer or the post dialog, 「やめる」 focused first (the safe choice), Escape cancels. Rendered while there is a
 * text waiting for the answer; the caller sends it with the confirmation on `onConfirm`.
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

/** The warning's words and the text it is about: in the dialog, and on the page twin that a plain form comes back to. */
export function OffPlatformNotice({ content, children }: { content: string | null; children?: ReactNode }) {
  return (
    <div className="space-y-3">
      <h2 id="off-platform-title" className="text-lg font-bold text-amber-900">
        <span aria-hidden="true">⚠ </span>
        {text.title}
      </h2>
      <p id="off-platform-body" className="text-sm text-slate-800">
        {text.body}
      </p>
      {content ? (
        <figure className="rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
          <figcaption className="text-xs font-semibold text-slate-600">{text.quoteLabel}</figcaption>
          <blockquote className="mt-1 whitespace-pre-wrap break-words text-sm" data-testid="off-platform-quote">
            {content}
          </blockquote>
        </figure>
      ) : null}
      {children}
    </div>
  );
}
