import type { Selectable, Transaction } from "kysely";
import type { BookingParty, BookingsTable, CancelReason, DB, Database } from "~/infra/db/tables";
import { bookingActionsFor, type BookingAction, type BookingFacts, type BookingRole, type BookingState } from "~/lib/booking-rules";
import { messages } from "~/lib/messages";
import { ratingsOf, reviewedBookings, type Rating } from "../reviews.server";

/**
 * Bookings (ADR 015, ADR 056): a buyer books units of a listing; the coins wait in escrow (`booking:{id}`) until the
 * session completes (to the seller less the fee) or is cancelled (back to the buyer). This module is how a booking
 * looks to one of its two people; the steps of its life each have a module of their own in this folder.
 */

export type Trx = Transaction<DB>;
export type BookingRow = Selectable<BookingsTable>;

export interface BookingPerson {
  uid: string;
  displayName: string;
  avatar: string | null;
  rating: Rating;
}

/** A booking as one of its two people sees it, with what the pages need besides. */
export interface Booking {
  id: string;
  listingId: string;
  title: string;
  totalPrice: number;
  totalMinutes: number;
  units: number;
  pricePerUnit: number;
  minutesPerUnit: number;
  desiredStartTime: string;
  note: string;
  status: BookingState;
  isSeller: boolean;
  buyer: BookingPerson;
  seller: BookingPerson;
  acceptDeadline: string;
  acceptedAt: string | null;
  startedAt: string | null;
  endsAt: string | null;
  buyerCheckedInAt: string | null;
  sellerCheckedInAt: string | null;
  completedAt: string | null;
  completedBy: BookingParty | null;
  cancelledAt: string | null;
  cancelledBy: BookingParty | null;
  cancelReason: CancelReason | null;
  createdAt: string;
  /** Completed and not yet reviewed by the viewer: the review dialog (or page) is offered. */
  canReview: boolean;
  /**
   * Every action of an open booking, whether the viewer may take it now, and if not why; a closed one (completed or
   * cancelled) has none, which is what a seller's long history is mostly made of (half of /api/tickets/all's bytes).
   */
  actions: Array<{
    action: BookingAction;
    label: string;
    allowed: boolean;
    /** Why it is not allowed now (null when allowed or already done). */
    reason: string | null;
    /** The action belongs to the other party: never this person's to take. */
    othersOnly: boolean;
  }>;
}

/** The ledger's reference for a booking's escrow. */
export const escrowOf = (bookingId: string) => `booking:${bookingId}`;
const iso = (value: Date | null) => value?.toISOString() ?? null;
const ms = (value: Date | null) => value?.getTime() ?? null;

export function factsOf(row: BookingRow): BookingFacts {
  return {
    status: row.status,
    desiredStartAt: row.desired_start_at.getTime(),
    acceptDeadlineAt: row.accept_deadline_at.getTime(),
    endsAt: ms(row.ends_at),
    buyerCheckedInAt: ms(row.buyer_checked_in_at),
    sellerCheckedInAt: ms(row.seller_checked_in_at),
  };
}

export async function peopleOf(db: Database, ids: string[]) {
  const [rows, ratings] = await Promise.all([db.selectFrom("users").select(["id", "display_name", "avatar_url"]).where("id", "in", ids).execute(), ratingsOf(db, ids)]);
  return new Map(
    rows.map((row): [string, BookingPerson] => [row.id, { uid: row.id, displayName: row.display_name, avatar: row.avatar_url, rating: ratings.get(row.id)! }]),
  );
}

function toBooking(row: BookingRow, viewerId: string, people: Map<string, BookingPerson>, now: Date, reviewed: Set<string>): Booking {
  const role: BookingRole = row.seller_id === viewerId ? "seller" : "buyer";
  const unknown = (uid: string): BookingPerson => ({ uid, displayName: messages.bookings.unknownUser, avatar: null, rating: { average: null, count: 0 } });
  return {
    id: row.id,
    listingId: row.listing_id,
    title: row.title,
    totalPrice: row.total_price,
    totalMinutes: row.total_minutes,
    units: row.units,
    pricePerUnit: row.price_per_unit,
    minutesPerUnit: row.minutes_per_unit,
    desiredStartTime: row.desired_start_at.toISOString(),
    note: row.note,
    status: row.status,
    isSeller: role === "seller",
    buyer: people.get(row.buyer_id) ?? unknown(row.buyer_id),
    seller: people.get(row.seller_id) ?? unknown(row.seller_id),
    acceptDeadline: row.accept_deadline_at.toISOString(),
    acceptedAt: iso(row.accepted_at),
    startedAt: iso(row.started_at),
    endsAt: iso(row.ends_at),
    buyerCheckedInAt: iso(row.buyer_checked_in_at),
    sellerCheckedInAt: iso(row.seller_checked_in_at),
    completedAt: iso(row.completed_at),
    completedBy: row.completed_by,
    cancelledAt: iso(row.cancelled_at),
    cancelledBy: row.cancelled_by,
    cancelReason: row.cancel_reason,
    createdAt: row.created_at.toISOString(),
    canReview: row.status === "completed" && !reviewed.has(row.id),
    actions: (row.status === "completed" || row.status === "cancelled" ? [] : bookingActionsFor(factsOf(row), role, now.getTime())).map(({ action, label, verdict }) => ({
      action,
      label,
      allowed: verdict.kind === "allowed",
      reason: verdict.kind === "denied" ? verdict.reason : null,
      othersOnly: verdict.kind === "denied" && verdict.status === 403,
    })),
  };
}

/** Booking rows as `viewerId` sees them: the two people with their ratings, and whether the viewer may review. */
export async function bookingViewsOf(db: Database, rows: BookingRow[], viewerId: string, now: Date) {
  if (rows.length === 0) return [];
  const [people, reviewed] = await Promise.all([
    peopleOf(db, [...new Set(rows.flatMap((row) => [row.buyer_id, row.seller_id]))]),
    reviewedBookings(db, viewerId, rows.filter((row) => row.status === "completed").map((row) => row.id)),
  ]);
  return rows.map((row) => toBooking(row, viewerId, people, now, reviewed));
}

/** One booking row as `viewerId` sees it. */
export async function bookingViewOf(db: Database, row: BookingRow, viewerId: string, now: Date) {
  const [booking] = await bookingViewsOf(db, [row], viewerId, now);
  return booking!;
}
