import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp, UpdatedAt } from "./columns";

/** What members sell and buy: listings (tickets), bookings and their extensions, reviews, subscriptions. */

export type ListingStatus = "active" | "paused" | "archived";
export interface ListingsTable {
  id: Generated<string>;
  seller_id: string;
  game_id: number;
  title: string;
  description: ColumnType<string, string | undefined, string>;
  price_per_unit: number;
  minutes_per_unit: number;
  max_units: number;
  status: ColumnType<ListingStatus, ListingStatus | undefined, ListingStatus>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Derived by triggers (migration 0012): the seller's mean rating and count, and the keyword search's text. */
  seller_rating: ColumnType<string | null, never, never>;
  seller_rating_count: ColumnType<number, never, never>;
  search_text: ColumnType<string, never, never>;
  search_grams: ColumnType<string[], never, never>;
  /** The seller's `online_announced`, kept by triggers (migration 0020) for explore's online-first orders. */
  seller_online: ColumnType<boolean, never, never>;
  /** Hidden by the operators: shown to its author only. */
  hidden_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Paused by a suspension (migration 0016): lifting it reactivates the listing. */
  moderation_paused_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type BookingStatus = "pending" | "accepted" | "in_progress" | "completed" | "cancelled";
export type BookingParty = "buyer" | "seller" | "auto";
export type CancelReason = "buyer" | "seller" | "no_show" | "accept_deadline" | "not_started" | "moderation";
export interface BookingsTable {
  id: Generated<string>;
  listing_id: string;
  buyer_id: string;
  seller_id: string;
  title: string;
  price_per_unit: number;
  minutes_per_unit: number;
  units: number;
  total_price: number;
  total_minutes: number;
  desired_start_at: Timestamp;
  note: ColumnType<string, string | undefined, string>;
  status: ColumnType<BookingStatus, BookingStatus | undefined, BookingStatus>;
  accept_deadline_at: Timestamp;
  accepted_at: Timestamp | null;
  started_at: Timestamp | null;
  ends_at: Timestamp | null;
  buyer_checked_in_at: Timestamp | null;
  seller_checked_in_at: Timestamp | null;
  completed_at: Timestamp | null;
  completed_by: BookingParty | null;
  cancelled_at: Timestamp | null;
  cancelled_by: BookingParty | null;
  cancel_reason: CancelReason | null;
  /** When the start reminder (an hour before) went out (migration 0014). */
  start_reminded_at: Timestamp | null;
  idempotency_key: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface BookingExtensionsTable {
  id: Generated<number>;
  booking_id: string;
  units: number;
  price: number;
  minutes: number;
  idempotency_key: string;
  created_at: CreatedAt;
}

export interface ReviewsTable {
  id: Generated<string>;
  booking_id: string;
  reviewer_id: string;
  reviewee_id: string;
  rating: number;
  comment: ColumnType<string, string | undefined, string>;
  tip_amount: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  /** Hidden by the operators: shown to its author only. */
  hidden_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SubscriptionPlansTable {
  seller_id: string;
  monthly_price: number;
  description: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SubscriptionsTable {
  id: Generated<string>;
  subscriber_id: string;
  subscribee_id: string;
  expires_at: Timestamp;
  reminded_expires_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SubscriptionPaymentsTable {
  id: Generated<string>;
  subscription_id: string;
  subscriber_id: string;
  subscribee_id: string;
  price: number;
  expires_at: Timestamp;
  idempotency_key: string;
  created_at: CreatedAt;
}
