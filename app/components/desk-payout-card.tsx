import { Form, Link } from "@remix-run/react";
import { PAYOUT_REASON_MAX } from "~/lib/constants";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import * as text from "~/lib/messages/desk-payouts";
import { accountLine, accountTypeLabel } from "~/lib/payouts";
import { formatDateTime } from "~/lib/time";
import type { DeskPayout, RevealedBankDetails } from "~/models/payout-desk.server";

/** What the desk said about one payout after a post that did not go through: the message, and what was typed. */
export interface DeskPayoutNotice {
  payoutId: string;
  message: string;
  field?: "reason";
  reason?: string;
}

/**
 * One requested payout on the payouts desk (ADR 072): who asked, how much, the seller's earned balance and earlier
 * requests, the account masked until 「表示」 (a plain POST, logged) answers it in full for this page alone, and the
 * decision form, a reason and two buttons. Plain forms, before and without JavaScript.
 */
export function DeskPayoutCard({ payout, revealed, notice, busy }: { payout: DeskPayout; revealed: RevealedBankDetails | null; notice: DeskPayoutNotice | null; busy: boolean }) {
  const reasonId = `reason-${payout.id}`;
  const errorId = `error-${payout.id}`;
  return (
    <li className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="desk-payout" data-payout-id={payout.id}>
      <h2 className="font-bold">
        <Link to={`/admin/users/${payout.sellerId}`} className="text-brand-700 underline">
          {payout.sellerName}
        </Link>
        <span className="ml-2 text-lg">
          {formatNumber(payout.coins)}コイン → {formatNumber(payout.yenAmount)}円
        </span>
      </h2>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold text-slate-700">{text.requestedAt}</dt>
        <dd>{formatDateTime(payout.createdAt)}</dd>
        <dt className="font-semibold text-slate-700">{text.earnedNow}</dt>
        <dd>{formatNumber(payout.sellerEarned)}コイン</dd>
        <dt className="font-semibold text-slate-700">{text.account}</dt>
        <dd className="break-words" data-testid="desk-payout-account">
          {revealed ? `${revealed.bankName} ${revealed.branchName} ${accountTypeLabel(revealed.accountType)} ${revealed.accountNumber}` : accountLine(payout)}
        </dd>
        <dt className="font-semibold text-slate-700">{text.accountHolder}</dt>
        <dd>{revealed ? revealed.accountHolder : text.hidden}</dd>
      </dl>
      {revealed ? (
        <p role="status" className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          {text.revealedNote}
        </p>
      ) : (
        <Form method="post" className="mt-2">
          <input type="hidden" name="intent" value="reveal" />
          <input type="hidden" name="payoutId" value={payout.id} />
          <button type="submit" className="btn-secondary min-h-11" aria-label={text.revealLabel(payout.sellerName)} disabled={busy}>
            {text.reveal}
          </button>
        </Form>
      )}
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-semibold text-slate-700">
          {text.history}（{payout.history.length}件）
        </summary>
        {payout.history.length === 0 ? (
          <p className="mt-1 text-slate-600">{text.noHistory}</p>
        ) : (
          <ul className="mt-1 space-y-1">
            {payout.history.map((earlier) => (
              <li key={earlier.id}>
                {formatDateTime(earlier.createdAt)} {formatNumber(earlier.coins)}コイン {messages.payouts.status[earlier.status]}
              </li>
            ))}
          </ul>
        )}
      </details>
      <Form method="post" className="mt-4 space-y-2">
        <input type="hidden" name="payoutId" value={payout.id} />
        <label htmlFor={reasonId} className="block text-sm font-semibold">
          {text.reason}
        </label>
        <p id={`${reasonId}-hint`} className="text-xs text-slate-600">
          {text.reasonHint(PAYOUT_REASON_MAX)}
        </p>
        <textarea
          id={reasonId}
          name="reason"
          rows={2}
          required
          maxLength={PAYOUT_REASON_MAX}
          defaultValue={notice?.reason ?? ""}
          aria-invalid={notice?.field === "reason" ? true : undefined}
          aria-describedby={notice ? `${reasonId}-hint ${errorId}` : `${reasonId}-hint`}
          className="field-input"
        />
        {notice ? (
          <p id={errorId} role="alert" className="text-sm font-semibold text-red-700">
            {notice.message}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="pay" className="btn-primary min-h-11" disabled={busy}>
            {busy ? text.working : text.pay}
          </button>
          <button type="submit" name="intent" value="reject" className="btn-secondary min-h-11" disabled={busy}>
            {text.reject}
          </button>
        </div>
      </Form>
    </li>
  );
}
