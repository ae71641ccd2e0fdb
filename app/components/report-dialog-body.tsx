import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { REPORT_NOTE_MAX, type ReportTargetType } from "~/lib/constants/moderation";
import type { FormRules } from "~/lib/form-rules";
import { messages } from "~/lib/messages";
import * as text from "~/lib/messages/reports";
import { ReportForm, type ReportActionData } from "./report-form";

/**
 * What the browser checks before sending, in the schema's words (reportFormSchema's constraint as the /report page's
 * loader computes it; test/unit/report-form.test.ts holds the two together). The dialog carries these few values
 * instead of loading the page's data first.
 */
export const REPORT_DIALOG_RULES: FormRules = {
  constraint: { targetType: { required: true }, targetId: { required: true, maxLength: 200 }, reason: { required: true }, note: { required: false, maxLength: REPORT_NOTE_MAX } },
  patterns: {},
  messages: {
    reason: { valueMissing: messages.validation.selectRequired },
    note: { tooLong: messages.validation.maxLength(REPORT_NOTE_MAX) },
  },
};

/**
 * The report dialog (docs/product.md#trust-and-safety): the /report page's form in a modal `<dialog>` (the browser keeps focus inside and
 * Escape closes it), posted to the page's action with a fetcher; focus goes back to the link that opened it.
 */
export default function ReportDialogBody({ target, onClose }: { target: { type: ReportTargetType; id: string }; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<ReportActionData>();
  const titleId = `report-dialog-title-${target.type}-${target.id}`;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.showModal();
    return () => opener?.focus();
  }, []);

  const sent = fetcher.state === "idle" ? fetcher.data?.sent : null;
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto max-h-[calc(100dvh-1.5rem)] w-[min(32rem,calc(100%-1.5rem))] overflow-y-auto rounded-2xl bg-white p-0 text-left text-base font-normal text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <div className="space-y-4 p-4 sm:p-6">
        <div className="flex items-center justify-between gap-3">
          <h2 id={titleId} className="text-lg font-bold">
            {text.targetLabels[target.type]}を{text.title}
          </h2>
          <button type="button" className="rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100" onClick={() => dialog.current?.close()}>
            {text.close}
          </button>
        </div>
        {sent ? (
          <p role="status" className="rounded-lg bg-green-50 px-4 py-6 text-center font-semibold text-green-800">
            {sent}
          </p>
        ) : (
          <>
            <p className="text-sm text-slate-600">{text.lead}</p>
            <ReportForm
              id={`report-dialog-${target.type}-${target.id}`}
              as={fetcher.Form}
              action="/report"
              target={target}
              rules={REPORT_DIALOG_RULES}
              lastResult={fetcher.data?.result}
              submitting={fetcher.state !== "idle"}
            />
          </>
        )}
      </div>
    </dialog>
  );
}
