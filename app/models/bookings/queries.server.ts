import type { Database } from "~/infra/db/tables";
import { BOOKINGS_LIST_MAX } from "~/lib/constants";
import { bookingViewOf, bookingViewsOf } from "./view.server";

/**
 * The caller's bookings as buyer and seller, newest first (GET /api/tickets/all, the management page). The newest of
 * each side come from their own index (bookings_buyer_idx, bookings_seller_idx), then merge: with `buyer_id = X or
 * seller_id = X`, PostgreSQL ORs two bitmaps and sorts every booking of the user (20,000 of a busy seller: 48–66 ms);
 * this reads at most two pages of the indexes. Nobody books their own listing, so the sides do not overlap.
 */
export async function listBookings({ db, userId, now = new Date() }: { db: Database; userId: string; now?: Date }) {
  // Each side a derived table of its own: Kysely would apply a bare side's ORDER BY and LIMIT to the whole union.
  const side = (column: "buyer_id" | "seller_id") =>
    db
      .selectFrom((sub) =>
        sub.selectFrom("bookings").selectAll().where(column, "=", userId).orderBy("created_at", "desc").orderBy("id").limit(BOOKINGS_LIST_MAX).as("s")
      )
      .selectAll();
  const rows = await db
    .selectFrom(side("buyer_id").unionAll(side("seller_id")).as("b"))
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(BOOKINGS_LIST_MAX)
    .execute();
  return bookingViewsOf(db, rows, userId, now);
}

/** The caller's accepted and in-progress sessions that have not ended, soonest first (/mypage/schedule). */
export async function listUpcoming({ db, userId, now = new Date() }: { db: Database; userId: string; now?: Date }) {
  const rows = await db
    .selectFrom("bookings")
    .selectAll()
    .where((eb) => eb.or([eb("buyer_id", "=", userId), eb("seller_id", "=", userId)]))
    .where((eb) =>
      eb.or([eb("status", "=", "accepted"), eb.and([eb("status", "=", "in_progress"), eb("ends_at", ">", now)])]),
    )
    .orderBy("desired_start_at")
    .limit(BOOKINGS_LIST_MAX)
    .execute();
  return bookingViewsOf(db, rows, userId, now);
}

/** One booking of the caller; someone else's is not found. */
export async function getBooking({ db, userId, bookingId, now = new Date() }: { db: Database; userId: string; bookingId: string; now?: Date }) {
  const row = await db
    .selectFrom("bookings")
    .selectAll()
    .where("id", "=", bookingId)
    .where((eb) => eb.or([eb("buyer_id", "=", userId), eb("seller_id", "=", userId)]))
    .executeTakeFirst();
  if (!row) return null;
  return bookingViewOf(db, row, userId, now);
}
