import { Link } from "@remix-run/react";
import { formatNumber } from "~/lib/format";
import type { Listing } from "~/models/listings.server";
import { CoinIcon } from "./coin-icon";
import { HiddenBadge } from "./moderation-slots";
import { Avatar } from "./presence";
import { RatingSummary } from "./star-rating";

/** A listing in a list (the listing list at /tickets, later a profile, explore and game pages): who, what game, price per slot. */
export function ListingCard({ listing }: { listing: Listing }) {
  return (
    <article className="flex h-full flex-col gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center gap-3">
        <Avatar name={listing.seller.displayName} src={listing.seller.avatar} presence={{ userId: listing.seller.uid, online: listing.seller.online }} />
        <div className="min-w-0">
          <Link to={`/u/${listing.seller.uid}`} className="block truncate text-sm font-semibold underline-offset-2 hover:underline">
            {listing.seller.displayName}
          </Link>
          <p className="text-xs text-slate-600">{listing.game.name}</p>
          <RatingSummary rating={listing.seller.rating} />
        </div>
      </div>
      <h3 className="font-bold">
        <Link to={`/tickets/${listing.id}`} className="text-brand-700 underline-offset-2 hover:underline">
          {listing.title}
        </Link>
      </h3>
      {listing.hidden ? <HiddenBadge className="self-start" /> : null}
      <p className="mt-auto flex items-center gap-1 text-sm">
        <CoinIcon size={16} />
        <strong>{formatNumber(listing.pricePerUnit)}</strong>コイン / {listing.minutesPerUnit}分
      </p>
    </article>
  );
}
