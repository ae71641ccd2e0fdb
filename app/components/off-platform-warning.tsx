import type { ReactNode } from "react";
import * as text from "~/lib/messages/off-platform";

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
