import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { TOAST_MS } from "~/lib/constants/notifications";
import type { Toast, ToastInput } from "~/lib/toast";

const SHOW_TOAST_EVENT = "gm:toast";

/** Shows a toast from the browser (an enhanced form that did not redirect). */
export function showToast(toast: ToastInput) {
  window.dispatchEvent(new CustomEvent<Toast>(SHOW_TOAST_EVENT, { detail: { id: crypto.randomUUID(), ...toast } }));
}

const tones = {
  success: "border-l-green-500",
  error: "border-l-red-500",
  info: "border-l-brand-500",
} as const;

/**
 * The toast overlay (docs/product.md#screens): the toast a form action flashed before its redirect, and every live
 * notification (member-overlays.tsx shows them through showToast), each for 3 seconds. Rendered on the server too, where a CSS animation hides it after
 * 3 seconds, so it works before (or without) JavaScript.
 */
export function Toaster({ flashed }: { flashed: Toast | null }) {
  const [toasts, setToasts] = useState<Toast[]>(flashed ? [flashed] : []);
  const shown = useRef(new Set(flashed ? [flashed.id] : []));

  const add = (toast: Toast) => {
    if (shown.current.has(toast.id)) return;
    shown.current.add(toast.id);
    setToasts((current) => [...current, toast]);
  };
  // A flash arriving with revalidated root data (an action redirected back without a page load).
  useEffect(() => {
    if (flashed) add(flashed);
  }, [flashed]);
  useEffect(() => {
    const onShow = (event: Event) => add((event as CustomEvent<Toast>).detail);
    window.addEventListener(SHOW_TOAST_EVENT, onShow);
    return () => window.removeEventListener(SHOW_TOAST_EVENT, onShow);
  }, []);
  return (
    // A live region that is always there (so screen readers hear what is added), but no `status` of its own
    // while empty: the page's own status messages stay the only ones.
    <div className="pointer-events-none fixed inset-x-4 top-16 z-50 flex flex-col items-end gap-2 sm:left-auto" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onDone={() => setToasts((current) => current.filter((t) => t.id !== toast.id))} />
      ))}
    </div>
  );
}

function ToastItem({ toast, onDone }: { toast: Toast; onDone: () => void }) {
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    const timer = window.setTimeout(() => done.current(), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const body = (
    <>
      <span className="block font-semibold">{toast.title}</span>
      {toast.description ? <span className="mt-0.5 block text-slate-600">{toast.description}</span> : null}
    </>
  );
  const className = `animate-toast pointer-events-auto block w-full max-w-sm rounded-lg border-l-4 bg-white px-4 py-3 text-sm shadow-lg ring-1 ring-slate-200 ${tones[toast.type]}`;
  return toast.link ? (
    <Link to={toast.link} className={`${className} hover:bg-slate-50`} data-testid="toast" onClick={onDone}>
      {body}
    </Link>
  ) : (
    <div className={className} data-testid="toast">
      {body}
    </div>
  );
}
