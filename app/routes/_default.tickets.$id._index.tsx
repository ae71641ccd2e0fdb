import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { CoinIcon } from "~/components/coin-icon";
import { BuyCoinsLink, useCoinBalance } from "~/components/coin-purchase";
import { HiddenBadge, ReportLink } from "~/components/moderation-slots";
import { Avatar } from "~/components/presence";
import { ReviewList } from "~/components/review-list";
import { RatingSummary } from "~/components/star-rating";
import { swallowed } from "~/http/log.server";
import { formatMinutes, suggestedStart, toDateTimeLocal } from "~/lib/booking-time";
import { BOOKING_HORIZON_MS, BOOKING_NOTE_MAX, REVIEWS_PAGE_SIZE } from "~/lib/constants";
import { formatNumber } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { uuidParam } from "~/lib/validation/fields";
import { getBalance } from "~/models/coins.server";
import { getListing } from "~/models/listings.server";
import { listReviews } from "~/models/reviews.server";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data ? data.listing.title : "チケット", data ? `${data.listing.seller.displayName}さんの${data.listing.game.name}のチケット` : undefined);

const paramsSchema = z.object({ id: uuidParam });

/** A listing's page: what the seller offers and, for a buyer, the booking form (a plain GET to the confirmation). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { id } = parseParams(paramsSchema, params, request);
  const viewer = await context.auth.getUser();
  const listing = await getListing({ db: context.db, listingId: id, viewerId: viewer?.id });
  if (!listing) throw new Response(null, { status: 404 });
  const { reviews } = await listReviews({ db: context.db, revieweeId: listing.seller.uid, viewerId: viewer?.id ?? null, limit: REVIEWS_PAGE_SIZE, offset: 0 });
  const balance = viewer ? await getBalance(context.db, viewer.id).then((b) => b.totalBalance, swallowed("coin balance", 0)) : null;
  const now = new Date();
  return {
    listing,
    reviews,
    balance,
    isSeller: viewer?.id === listing.seller.uid,
    signedIn: !!viewer,
    earliest: toDateTimeLocal(now),
    latest: toDateTimeLocal(now.getTime() + BOOKING_HORIZON_MS),
    suggested: toDateTimeLocal(suggestedStart(now)),
  };
}

export default function ListingPage() {
  const { listing, reviews, balance, isSeller, signedIn, earliest, latest, suggested } = useLoaderData<typeof loader>();
  const [units, setUnits] = useState(1);
  const total = listing.pricePerUnit * units;

  return (
    <article aria-labelledby="ticket-title" className="mx-auto max-w-2xl space-y-6">
      <div className="space-y-2">
        <p className="text-sm text-slate-600">
          <Link to={`/games/${listing.game.slug}`} className="text-brand-700 underline">
            {listing.game.name}
          </Link>
        </p>
        <h1 id="ticket-title" className="text-2xl font-bold">
          {listing.title}
        </h1>
        {listing.hidden ? <HiddenBadge /> : null}
        <div className="flex items-center gap-3">
          <Avatar name={listing.seller.displayName} src={listing.seller.avatar} presence={{ userId: listing.seller.uid, online: listing.seller.online }} />
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-x-2">
              <Link to={`/u/${listing.seller.uid}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                {listing.seller.displayName}
              </Link>
              <RatingSummary rating={listing.seller.rating} />
            </p>
            <Link to={`/tickets?seller=${listing.seller.uid}`} className="text-sm text-brand-700 underline">
              この出品者のほかのチケット
            </Link>
          </div>
        </div>
      </div>
      <dl className="grid grid-cols-3 gap-3 rounded-xl bg-white p-4 text-center ring-1 ring-slate-200">
        <div>
          <dt className="text-xs text-slate-600">1枠の価格</dt>
          <dd className="flex items-center justify-center gap-1 text-lg font-bold">
            <CoinIcon size={16} />
            {formatNumber(listing.pricePerUnit)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">1枠の時間</dt>
          <dd className="text-lg font-bold">{formatMinutes(listing.minutesPerUnit)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">最大</dt>
          <dd className="text-lg font-bold">{listing.maxUnits}枠</dd>
        </div>
      </dl>
      {listing.description ? <p className="whitespace-pre-wrap break-words text-slate-800">{listing.description}</p> : null}
      {signedIn && !isSeller ? (
        <p className="text-right">
          <ReportLink type="listing" id={listing.id} ownerName={listing.seller.displayName} />
        </p>
      ) : null}

      {isSeller ? (
        <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700">
          これはあなたのチケットです。
          <Link to={`/mypage/ticket-registration?edit=${listing.id}`} className="ml-1 text-brand-700 underline">
            編集する
          </Link>
        </p>
      ) : listing.status !== "active" ? (
        <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">このチケットは現在受付を停止しています。</p>
      ) : (
        <Form method="get" action={`/tickets/${listing.id}/confirm`} className="space-y-4 rounded-xl bg-white p-5 ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">購入する</h2>
          <div>
            <label htmlFor="units" className="field-label">
              枠数
            </label>
            <select id="units" name="units" value={units} onChange={(event) => setUnits(Number(event.target.value))} className="field-input">
              {Array.from({ length: listing.maxUnits }, (_, index) => index + 1).map((count) => (
                <option key={count} value={count}>
                  {count}枠（{formatMinutes(listing.minutesPerUnit * count)}・{formatNumber(listing.pricePerUnit * count)}コイン）
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="desiredStartTime" className="field-label">
              開始希望日時（日本時間）
            </label>
            <input id="desiredStartTime" name="desiredStartTime" type="datetime-local" required min={earliest} max={latest} defaultValue={suggested} className="field-input" />
          </div>
          <div>
            <label htmlFor="note" className="field-label">
              販売者へのメッセージ（任意）
            </label>
            <textarea id="note" name="note" rows={3} maxLength={BOOKING_NOTE_MAX} className="field-input" placeholder="ランク帯、やりたいことなど" />
          </div>
          <Total total={total} initialBalance={balance} />
          <button type="submit" className="btn-primary w-full">
            {signedIn ? "購入内容を確認する" : "ログインして購入内容を確認する"}
          </button>
        </Form>
      )}
      <section aria-labelledby="reviews-title" className="space-y-3">
        <h2 id="reviews-title" className="text-lg font-bold">
          {listing.seller.displayName}さんへのレビュー
        </h2>
        <ReviewList reviews={reviews} />
      </section>
    </article>
  );
}

/** The total for the chosen units and, signed in, the live balance with a way to buy coins when it is short. */
function Total({ total, initialBalance }: { total: number; initialBalance: number | null }) {
  return (
    <div className="rounded-lg bg-slate-50 px-4 py-3 text-sm" aria-live="polite">
      <p>
        合計：<strong className="text-lg">{formatNumber(total)}コイン</strong>
      </p>
      {initialBalance !== null ? <Balance total={total} initialBalance={initialBalance} /> : null}
    </div>
  );
}

function Balance({ total, initialBalance }: { total: number; initialBalance: number }) {
  const balance = useCoinBalance(initialBalance);
  return (
    <p className="mt-1">
      残高：{formatNumber(balance)}コイン
      {balance < total ? (
        <>
          <span className="ml-2 font-semibold text-red-700">コインが足りません</span>
          <BuyCoinsLink className="ml-2 text-brand-700 underline">コインを購入</BuyCoinsLink>
        </>
      ) : null}
    </p>
  );
}
