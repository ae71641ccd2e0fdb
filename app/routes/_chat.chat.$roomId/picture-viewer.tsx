import { useEffect, useRef, type RefObject } from "react";
import { viewerClose, viewerLabel } from "~/lib/messages/chat";

/**
 * The full-screen picture viewer (ADR 070): a modal `<dialog>` over the room (keyboard and screen readers stay inside
 * it), the full picture fitted to the screen. It closes with its button, Esc, a tap beside the picture or the browser's
 * back button, and gives the focus back to the thumbnail that opened it.
 *
 * Opening adds a history entry (the same state, the same URL), so that "back" closes the viewer instead of leaving the
 * room. The popstate that closes it is the viewer's own: caught before the router hears it, so the room is not
 * navigated or reloaded for it.
 */
export function PictureViewer({ src, alt, opener, onClosed }: { src: string; alt: string; opener: RefObject<HTMLAnchorElement | null>; onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    window.history.pushState(window.history.state, "");
    let entry = true;
    const onPop = (event: PopStateEvent) => {
      // The viewer's own entry left (back, or close()): the room stays where it is and knows nothing of it.
      event.stopImmediatePropagation();
      entry = false;
      element?.close();
      onClosed();
      opener.current?.focus();
    };
    window.addEventListener("popstate", onPop, { capture: true, once: true });
    return () => {
      window.removeEventListener("popstate", onPop, { capture: true });
      // Unmounted another way (the room left): its history entry goes too.
      if (entry) window.history.back();
    };
  }, [onClosed, opener]);
  const close = () => window.history.back();
  return (
    <dialog
      ref={dialog}
      aria-label={viewerLabel}
      className="m-0 h-full max-h-none w-full max-w-none bg-black/90 p-0 backdrop:bg-black/70"
      data-testid="picture-viewer"
      onCancel={(event) => {
        // Esc: closed through history, as the back button does.
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="flex h-full w-full items-center justify-center" onClick={(event) => event.target === event.currentTarget && close()}>
        <img src={src} alt={alt} className="max-h-full max-w-full object-contain" />
      </div>
      <button
        type="button"
        autoFocus
        onClick={close}
        className="absolute right-3 top-3 rounded-full bg-white px-4 py-2 text-sm font-semibold text-slate-900 shadow focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      >
        {viewerClose}
      </button>
    </dialog>
  );
}
