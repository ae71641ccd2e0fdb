import { Form, Link } from "@remix-run/react";
import { BOOKING_STATUS_LABELS, counterpartLabel } from "~/lib/booking-rules";
import { formatMinutes } from "~/lib/booking-time";
import { LISTING_MAX_UNITS } from "~/lib/constants";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { formatDateTime, isoString } from "~/lib/time";
import type { Booking } from "~/models/bookings/view.server";
import { Avatar } from "./presence";
import { ReviewLink } from "./review-dialog";
import { RatingSummary } from "./star-rating";

const statusTones = {
  pending: "bg-amber-100 text-amber-900",
  accepted: "bg-brand-50 text-brand-700",
  in_progress: "bg-green-100 text-green-800",
  completed: "bg-slate-200 text-slate-800",
  cancelled: "bg-slate-100 text-slate-700",
} as const;

/**
 * A booking as one of its two people sees it: the other person (labelled 購入者 or 販売者), the session, its
 * state, the actions this person may take now as plain forms, and why the others are not available.
 */
export function BookingCard({ booking, extensionKey, error, redirectTo }: { booking: Booking; extensionKey?: string; error?: string | null; redirectTo: string }) {
  const other = booking.isSeller ? booking.buyer : booking.seller;
  const allowed = booking.actions.filter((item) => item.allowed);
  // What this person could do in another state or at another time; actions that are never theirs are not listed.
  const unavailable = booking.actions.filter((item) => !item.allowed && item.reason && !item.othersOnly);
  const closed = booking.status === "completed" || booking.status === "cancelled";
  const titleId = `booking-${booking.id}-title`;

  return (
    <article aria-labelledby={titleId} className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="font-bold">
          <Link to={`/tickets/${booking.listingId}`} className="text-brand-700 underline-offset-2 hover:underline">
            {booking.title}
          </Link>
        </h3>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${statusTones[booking.status]}`}>{BOOKING_STATUS_LABELS[booking.status]}</span>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Avatar name={other.displayName} src={other.avatar} size="sm" />
        <span className="text-slate-600">{counterpartLabel(booking.isSeller)}</span>
        <Link to={`/u/${other.uid}`} className="font-semibold underline-offset-2 hover:underline">
          {other.displayName}
        </Link>
        <RatingSummary rating={other.rating} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <Fact label="開始希望">
          <time dateTime={isoString(booking.desiredStartTime)}>{formatDateTime(booking.desiredStartTime)}</time>
        </Fact>
        <Fact label="時間">
          {booking.units}枠・{formatMinutes(booking.totalMinutes)}
        </Fact>
        <Fact label="コイン">{formatNumber(booking.totalPrice)}</Fact>
        {booking.status === "pending" ? <Fact label="承認期限">{formatDateTime(booking.acceptDeadline)}</Fact> : null}
        {booking.status === "in_progress" && booking.endsAt ? <Fact label="終了予定">{formatDateTime(booking.endsAt)}</Fact> : null}
        {booking.status === "completed" && booking.completedAt ? <Fact label="完了">{formatDateTime(booking.completedAt)}</Fact> : null}
      </dl>
      {booking.note ? <p className="whitespace-pre-wrap break-words rounded-lg bg-slate-50 px-3 py-2 text-sm">{booking.note}</p> : null}
      {booking.status === "accepted" || booking.status === "in_progress" ? (
        <p className="text-xs text-slate-600">
          参加：購入者 {booking.buyerCheckedInAt ? "✓ 参加済み" : "未"}・販売者 {booking.sellerCheckedInAt ? "✓ 参加済み" : "未"}
        </p>
      ) : null}
      {booking.status === "cancelled" && booking.cancelReason ? <p className="text-sm text-slate-600">{messages.bookings.cancelledLabels[booking.cancelReason]}（全額返金済み）</p> : null}
      {error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {allowed.length ? (
        <div className="flex flex-wrap items-end gap-2">
          {allowed.map((item) =>
            item.action === "extend" ? (
              <Form key={item.action} method="post" className="flex items-end gap-2">
                <Hidden booking={booking} action="extend" redirectTo={redirectTo} />
                <input type="hidden" name="idempotencyKey" value={extensionKey} />
                <label className="text-sm">
                  <span className="sr-only">延長する枠数</span>
                  <select name="units" defaultValue="1" className="field-input py-1">
                    {Array.from({ length: LISTING_MAX_UNITS }, (_, index) => index + 1).map((units) => (
                      <option key={units} value={units}>
                        {units}枠（{formatNumber(booking.pricePerUnit * units)}コイン）
                      </option>
                    ))}
                  </select>
                </label>
                <button type="submit" className="btn-secondary min-h-9 px-3 text-sm">
                  {item.label}
                </button>
              </Form>
            ) : (
              <Form key={item.action} method="post">
                <Hidden booking={booking} action={item.action} redirectTo={redirectTo} />
                <button type="submit" className={`${item.action === "cancel" ? "btn-secondary" : "btn-primary"} min-h-9 px-3 text-sm`}>
                  {item.label}
                </button>
              </Form>
            ),
          )}
        </div>
      ) : null}
      {booking.status === "completed" ? (
        booking.canReview ? (
          <ReviewLink
            target={{ bookingId: booking.id, isBuyer: !booking.isSeller, counterpart: { displayName: other.displayName, avatar: other.avatar } }}
            className="btn-primary inline-flex min-h-9 px-3 text-sm"
          >
            {`${other.displayName}さんのレビューを書く`}
          </ReviewLink>
        ) : (
          <p className="text-sm text-slate-600">✓ レビュー済み</p>
        )
      ) : null}
      {!closed && unavailable.length ? (
        <ul className="list-inside list-disc text-xs text-slate-600" aria-label="今はできない操作">
          {unavailable.map((item) => (
            <li key={item.action}>
              {item.label}：{item.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

function Hidden({ booking, action, redirectTo }: { booking: Booking; action: string; redirectTo: string }) {
  return (
    <>
      <input type="hidden" name="bookingId" value={booking.id} />
      <input type="hidden" name="intent" value={action} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
    </>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="font-semibold">{children}</dd>
    </div>
  );
}
