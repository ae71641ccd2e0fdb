import { LISTINGS_PER_SELLER_MAX, REPORTS_PER_DAY } from "./constants";
import { messages } from "./messages";

// What each model's error code says to the person: apart from the messages, so only the code that explains a failure
// carries the areas these read.

/** What a broken ledger or order rule (a CoinError or CoinOrderError code) says to the person. */
export function coinErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    insufficient_coins: messages.coins.insufficient,
    package_not_found: messages.coins.packageNotFound,
    idempotency_conflict: messages.coins.idempotencyConflict,
    provider_failed: messages.coins.orderFailed,
    escrow_settled: messages.coins.escrowSettled,
    escrow_not_found: messages.api.notFound,
  };
  return byCode[code] ?? messages.validation.checkInput;
}

/** What a broken listing rule (a ListingError code) says to the person. */
export function listingErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    listing_not_found: messages.listings.listingNotFound,
    listing_archived: messages.listings.listingArchived,
    unknown_game: messages.validation.unknownGame,
    profile_not_found: messages.profile.notSetUp,
    too_many_listings: messages.listings.tooManyListings(LISTINGS_PER_SELLER_MAX),
  };
  return byCode[code] ?? messages.validation.checkInput;
}

/** What a broken booking rule (a BookingError code, or the ledger's CoinError under a booking) says to the person. */
export function bookingErrorMessage(code: string, reason?: string) {
  if (reason) return reason;
  const byCode: Record<string, string> = {
    listing_not_found: messages.listings.listingNotFound,
    booking_not_found: messages.bookings.bookingNotFound,
    listing_paused: messages.listings.listingPaused,
    self_purchase: messages.bookings.selfPurchase,
    blocked: messages.bookings.blocked,
    start_in_past: messages.bookings.startTimeInPast,
    idempotency_conflict: messages.bookings.idempotencyConflict,
    profile_not_found: messages.profile.notSetUp,
  };
  return byCode[code] ?? coinErrorMessage(code);
}

/** What a broken review rule (a ReviewError code) says to the person. */
export function reviewErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    booking_not_found: messages.reviews.notFound,
    not_completed: messages.reviews.notCompleted,
    already_reviewed: messages.reviews.alreadyReviewed,
    tip_buyer_only: messages.reviews.tipBuyerOnly,
    blocked: messages.reviews.blocked,
    user_left: messages.account.userLeft,
  };
  return byCode[code] ?? coinErrorMessage(code);
}

/** What a broken chat rule (a ChatError code) says to the person. */
export function chatErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    room_not_found: messages.api.notFound,
    unauthorized: messages.api.authRequired,
    user_not_found: messages.chat.userNotFound,
    blocked: messages.chat.blocked,
    rate_limited: messages.chat.rateLimited,
    client_id_reused: messages.chat.clientIdReused,
    self_chat: messages.chat.cannotChatWithSelf,
    upload_not_found: messages.chat.uploadNotFound,
    upload_used: messages.chat.uploadUsed,
  };
  return byCode[code] ?? messages.validation.checkInput;
}

/** What a broken post rule (a PostError code) says to the person. */
export function postErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    image_not_found: messages.posts.imageNotYours,
    // An image uploaded for the other audience (ADR 070): chosen again, as a missing one.
    image_audience: messages.posts.imageNotYours,
    profile_required: messages.posts.profileRequired,
    post_not_found: messages.posts.notFound,
    rate_limited: messages.posts.rateLimited,
    not_community_member: messages.posts.notCommunityMember,
  };
  return byCode[code] ?? messages.posts.failed;
}

/** What a broken subscription rule (a SubscriptionError code) says to the person. */
export function subscriptionErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    self_subscription: messages.subscriptions.selfSubscription,
    no_plan: messages.subscriptions.noPlan,
    blocked: messages.subscriptions.blocked,
    idempotency_conflict: messages.subscriptions.idempotencyConflict,
    profile_required: messages.profile.notSetUp,
  };
  return byCode[code] ?? coinErrorMessage(code);
}

/** What a broken payout rule (a PayoutError or the ledger's CoinError code) says to the person. */
export function payoutErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    insufficient_coins: messages.payouts.insufficient,
    idempotency_conflict: messages.payouts.idempotencyConflict,
    payout_not_found: messages.payouts.notFound,
    already_decided: messages.payouts.alreadyDecided,
    payout_held: messages.payouts.held,
    profile_required: messages.payouts.profileRequired,
  };
  return byCode[code] ?? coinErrorMessage(code);
}

/** What a broken event rule (an EventError code) says to the person. */
export function eventErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    event_not_found: messages.events.notFound,
    event_full: messages.events.full,
    event_started: messages.events.started,
    profile_required: messages.events.profileRequired,
  };
  return byCode[code] ?? messages.events.failed;
}

/** What a refused report (a ReportError code) says to the person. */
export function reportErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    profile_required: messages.profile.notSetUp,
    target_not_found: messages.reports.notFound,
    self_report: messages.reports.self,
    rate_limited: messages.reports.rateLimited(REPORTS_PER_DAY),
  };
  return byCode[code] ?? messages.reports.failed;
}

/** What the inquiries desk says when a post about an inquiry does not go through (an InquiryDeskError code). */
export function inquiryDeskErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    inquiry_not_found: messages.inquiry.deskNotFound,
    inquiry_closed: messages.inquiry.closedNoReply,
    rate_limited: messages.inquiry.rateLimited,
  };
  return byCode[code] ?? messages.validation.checkInput;
}
