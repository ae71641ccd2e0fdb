import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { DomainError } from "~/lib/domain-error";
import { messages } from "~/lib/messages";
import type { ReviewInput } from "~/lib/validation/review";
import { transfer } from "./coins.server";
import { publishNotifications, recordNotifications } from "./notification.server";
import { NOBODY } from "./presence.server";
import { lockPresentUsers } from "./user.server";

/**
 * Reviews (docs/product.md#data, docs/product.md#validation, #roles): after a completed booking each of its two people reviews the other once; the
 * buyer may add a coin tip, which moves through the ledger (buyer → seller's earned coins, less the fee) in the
 * review's own transaction, so a review with a tip exists exactly when the coins moved.
 */

export class ReviewError extends DomainError<403 | 404 | 409, "booking_not_found" | "not_completed" | "already_reviewed" | "tip_buyer_only" | "blocked" | "user_left"> {}

export interface Rating {
  /** The mean of the stars, one decimal; null with no reviews. */
  average: number | null;
  count: number;
}

export interface Review {
  id: string;
  bookingId: string;
  rating: number;
  comment: string;
  tipAmount: number;
  reviewer: { uid: string; displayName: string; avatar: string | null; role: "buyer" | "seller" };
  createdAt: string;
  /** Hidden by the operators (docs/product.md#trust-and-safety): only its reviewer is shown it, marked 「運営により非表示」; it counts in no rating. */
  hidden: boolean;
}

/**
 * Reviews a completed booking on behalf of one of its two people (POST /api/reviews, the review dialog and page).
 * A stranger's booking is not found; a booking not completed, or reviewed by this person already, is a 409; a tip
 * from the seller, or a review of someone who blocked you, a 403; a tip above the buyer's coins a 422.
 */
export async function submitReview({
  db,
  realtime,
  feePercent,
  reviewerId,
  input,
}: {
  db: Database;
  realtime: Realtime;
  feePercent: number;
  reviewerId: string;
  input: ReviewInput;
}) {
  const { review, pending } = await db.transaction().execute(async (trx) => {
    // The booking's row lock makes two submits of the same review take turns: the second finds the first.
    const booking = await trx
      .selectFrom("bookings")
      .select(["id", "buyer_id", "seller_id", "status", "title"])
      .where("id", "=", input.bookingId)
      .forUpdate()
      .executeTakeFirst();
    if (!booking || (booking.buyer_id !== reviewerId && booking.seller_id !== reviewerId)) throw new ReviewError(404, "booking_not_found");
    const isBuyer = booking.buyer_id === reviewerId;
    const revieweeId = isBuyer ? booking.seller_id : booking.buyer_id;
    if (booking.status !== "completed") throw new ReviewError(409, "not_completed");
    if (input.tipAmount > 0 && !isBuyer) throw new ReviewError(403, "tip_buyer_only");
    const blocked = await trx.selectFrom("user_blocks").select("blocker_id").where("blocker_id", "=", revieweeId).where("blocked_id", "=", reviewerId).executeTakeFirst();
    if (blocked) throw new ReviewError(403, "blocked");
    // Nobody reviews or tips an account that left (退会); its row is held so it cannot leave while this goes on.
    if (!(await lockPresentUsers(trx, [revieweeId])).has(revieweeId)) throw new ReviewError(404, "user_left");
    const review = await trx
      .insertInto("reviews")
      .values({ booking_id: booking.id, reviewer_id: reviewerId, reviewee_id: revieweeId, rating: input.rating, comment: input.comment, tip_amount: input.tipAmount })
      .onConflict((oc) => oc.columns(["booking_id", "reviewer_id"]).doNothing())
      .returning(["id", "created_at"])
      .executeTakeFirst();
    if (!review) throw new ReviewError(409, "already_reviewed");
    if (input.tipAmount > 0) {
      await transfer(trx, { fromId: reviewerId, toId: revieweeId, amount: input.tipAmount, purpose: "tip", reference: `review:${review.id}`, feePercent });
    }
    const reviewer = await trx.selectFrom("users").select("display_name").where("id", "=", reviewerId).executeTakeFirstOrThrow();
    const pending = await recordNotifications(trx, [
      {
        userId: revieweeId,
        type: "review",
        title: messages.reviews.receivedTitle(reviewer.display_name, input.rating),
        body: messages.reviews.receivedBody(input.tipAmount),
        link: "/settings/ticket-management?role=" + (isBuyer ? "seller" : "buyer"),
        mail: "review_received",
      },
    ]);
    return { review: { id: review.id, createdAt: review.created_at.toISOString() }, pending };
  });
  publishNotifications(realtime, pending);
  return review;
}

/**
 * The mean and count of the stars each of these users received, from the totals the review triggers keep on the user
 * (migrations 0012 and 0017: a hidden review counts in none), not an aggregate over their reviews (20,000 for a busy
 * seller).
 */
function ratingsQuery(db: Database, userIds: readonly string[]) {
  return db
    .selectFrom("users")
    .select([
      "id as reviewee_id",
      sql<string | null>`case when rating_count > 0 then rating_sum::numeric / rating_count end`.as("average"),
      "rating_count as count",
    ])
    .where("id", "in", userIds);
}

export const toRating = (row?: { average: string | number | null; count: string | number }): Rating =>
  row && Number(row.count) > 0 ? { average: Math.round(Number(row.average) * 10) / 10, count: Number(row.count) } : { average: null, count: 0 };

/** The ratings of these users (no reviews: average null, count 0). */
export async function ratingsOf(db: Database, userIds: readonly string[]): Promise<Map<string, Rating>> {
  const ids = [...new Set(userIds)];
  const rows = ids.length ? await ratingsQuery(db, ids).execute() : [];
  const byId = new Map(rows.map((row) => [row.reviewee_id, toRating(row)]));
  return new Map(ids.map((id) => [id, byId.get(id) ?? toRating()]));
}

/** A user's reviews, newest first, with who wrote them and in which role; a hidden one only for its reviewer. */
export async function listReviews({
  db,
  revieweeId,
  viewerId,
  limit,
  offset,
}: {
  db: Database;
  revieweeId: string;
  viewerId: string | null;
  limit: number;
  offset: number;
}) {
  const rows = await db
    .selectFrom("reviews as r")
    .innerJoin("users as u", "u.id", "r.reviewer_id")
    .innerJoin("bookings as b", "b.id", "r.booking_id")
    .select(["r.id", "r.booking_id", "r.rating", "r.comment", "r.tip_amount", "r.created_at", "r.hidden_at", "u.id as reviewer_id", "u.display_name", "u.avatar_url", "b.buyer_id"])
    .where("r.reviewee_id", "=", revieweeId)
    .where((eb) => eb.or([eb("r.hidden_at", "is", null), eb("r.reviewer_id", "=", viewerId ?? NOBODY)]))
    .orderBy("r.created_at", "desc")
    .orderBy("r.id")
    .limit(limit + 1)
    .offset(offset)
    .execute();
  const reviews: Review[] = rows.slice(0, limit).map((row) => ({
    id: row.id,
    bookingId: row.booking_id,
    rating: row.rating,
    comment: row.comment,
    tipAmount: row.tip_amount,
    reviewer: { uid: row.reviewer_id, displayName: row.display_name, avatar: row.avatar_url, role: row.buyer_id === row.reviewer_id ? "buyer" : "seller" },
    createdAt: row.created_at.toISOString(),
    hidden: row.hidden_at !== null,
  }));
  return { reviews, hasMore: rows.length > limit };
}

/** Which of these bookings the user has reviewed already. */
export async function reviewedBookings(db: Database, reviewerId: string, bookingIds: readonly string[]) {
  if (bookingIds.length === 0) return new Set<string>();
  const rows = await db.selectFrom("reviews").select("booking_id").where("reviewer_id", "=", reviewerId).where("booking_id", "in", [...bookingIds]).execute();
  return new Set(rows.map((row) => row.booking_id));
}

