import { Link } from "@remix-run/react";
import { formatDate, isoString } from "~/lib/time";
import { PARTY_LABELS } from "~/lib/booking-rules";
import { formatNumber } from "~/lib/format";
import type { Review } from "~/models/reviews.server";
import { HiddenBadge, ReportLink } from "./moderation-slots";
import { useAuth } from "./auth-provider";
import { Avatar } from "./presence";

/** A user's reviews (stars, comment, who wrote it and when, in Asia/Tokyo): on listing pages (/tickets/{id}), later on profiles. */
export function ReviewList({ reviews, emptyText = "まだレビューはありません。" }: { reviews: Review[]; emptyText?: string }) {
  const viewerId = useAuth().session?.user.id;
  if (reviews.length === 0) return <p className="rounded-lg bg-slate-50 px-4 py-4 text-center text-sm text-slate-600">{emptyText}</p>;
  return (
    <ul className="divide-y divide-slate-100 rounded-xl bg-white ring-1 ring-slate-200" aria-label="レビュー一覧">
      {reviews.map((review) => (
        <li key={review.id} className="space-y-1 p-4">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-amber-500" role="img" aria-label={`${review.rating}つ星（5段階中）`}>
              <span aria-hidden="true">
                {"★".repeat(review.rating)}
                <span className="text-slate-300">{"★".repeat(5 - review.rating)}</span>
              </span>
            </span>
            <Avatar name={review.reviewer.displayName} src={review.reviewer.avatar} size="sm" />
            <Link to={`/u/${review.reviewer.uid}`} className="text-sm font-semibold underline-offset-2 hover:underline">
              {review.reviewer.displayName}
            </Link>
            <span className="text-xs text-slate-600">{PARTY_LABELS[review.reviewer.role]}</span>
            {review.tipAmount > 0 ? <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-900">チップ {formatNumber(review.tipAmount)}コイン</span> : null}
            {review.hidden ? <HiddenBadge /> : null}
            <time className="ml-auto text-xs text-slate-600" dateTime={isoString(review.createdAt)}>
              {formatDate(review.createdAt)}
            </time>
            {viewerId && viewerId !== review.reviewer.uid ? <ReportLink type="review" id={review.id} ownerName={review.reviewer.displayName} /> : null}
          </div>
          {review.comment ? <p className="whitespace-pre-wrap break-words text-sm">{review.comment}</p> : null}
        </li>
      ))}
    </ul>
  );
}
