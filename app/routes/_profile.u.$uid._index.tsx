import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ListingCard } from "~/components/listing-card";
import { ReviewList } from "~/components/review-list";
import { PROFILE_LISTINGS_MAX, REVIEWS_PAGE_SIZE } from "~/lib/constants";
import { parseParams } from "~/lib/params";
import { uuidParam } from "~/lib/validation/fields";
import { listListings } from "~/models/listings.server";
import { listReviews } from "~/models/reviews.server";

const paramsSchema = z.object({ uid: uuidParam });

/** The profile's first tab: the listings the person sells and the reviews they received. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { uid } = parseParams(paramsSchema, params, request);
  const viewer = await context.auth.getUser();
  const [{ listings, hasMore }, { reviews }] = await Promise.all([
    listListings({ db: context.db, sellerId: uid, viewerId: viewer?.id, limit: PROFILE_LISTINGS_MAX, offset: 0 }),
    listReviews({ db: context.db, revieweeId: uid, viewerId: viewer?.id ?? null, limit: REVIEWS_PAGE_SIZE, offset: 0 }),
  ]);
  return { uid, listings, hasMore, reviews };
}

export default function ProfileOverview() {
  const { uid, listings, hasMore, reviews } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-8">
      <section aria-labelledby="profile-listings" className="space-y-3">
        <h2 id="profile-listings" className="text-lg font-bold">
          販売中のチケット
        </h2>
        {listings.length === 0 ? (
          <p className="rounded-lg bg-slate-50 px-4 py-4 text-center text-sm text-slate-600">販売中のチケットはありません。</p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {listings.map((listing) => (
              <li key={listing.id}>
                <ListingCard listing={listing} />
              </li>
            ))}
          </ul>
        )}
        {hasMore ? (
          <p>
            <Link to={`/tickets?seller=${uid}`} className="text-sm text-brand-700 underline">
              チケットをすべて見る
            </Link>
          </p>
        ) : null}
      </section>
      <section aria-labelledby="profile-reviews" className="space-y-3">
        <h2 id="profile-reviews" className="text-lg font-bold">
          レビュー
        </h2>
        <ReviewList reviews={reviews} />
      </section>
    </div>
  );
}
