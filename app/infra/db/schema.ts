import type { ColumnType, Generated, Insertable, Kysely, Selectable } from "kysely";

/**
 * The database schema as Kysely sees it: one interface per table, snake_case as in SQL.
 * Each migration in migrations/ that changes a table changes its interface here.
 */
export interface DB {
  games: GamesTable;
  inquiries: InquiriesTable;
  auth_users: AuthUsersTable;
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  rate_limit_events: RateLimitEventsTable;
  rate_limit_windows: RateLimitWindowsTable;
  users: UsersTable;
  user_presence: UserPresenceTable;
  user_games: UserGamesTable;
  subscriptions: SubscriptionsTable;
  chat_rooms: ChatRoomsTable;
  chat_participants: ChatParticipantsTable;
  chat_messages: ChatMessagesTable;
  user_blocks: UserBlocksTable;
  notifications: NotificationsTable;
  coin_wallets: CoinWalletsTable;
  coin_transactions: CoinTransactionsTable;
  coin_escrows: CoinEscrowsTable;
  coin_orders: CoinOrdersTable;
  payment_events: PaymentEventsTable;
  listings: ListingsTable;
  bookings: BookingsTable;
  booking_extensions: BookingExtensionsTable;
  reviews: ReviewsTable;
  uploads: UploadsTable;
  posts: PostsTable;
  footprints: FootprintsTable;
  subscription_plans: SubscriptionPlansTable;
  subscription_payments: SubscriptionPaymentsTable;
  payout_requests: PayoutRequestsTable;
  events: EventsTable;
  event_participants: EventParticipantsTable;
  communities: CommunitiesTable;
  community_members: CommunityMembersTable;
  auth_one_time_tokens: AuthOneTimeTokensTable;
  mail_outbox: MailOutboxTable;
  mail_opt_outs: MailOptOutsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_opt_outs: PushOptOutsTable;
  push_outbox: PushOutboxTable;
  reports: ReportsTable;
  moderation_actions: ModerationActionsTable;
  off_platform_flags: OffPlatformFlagsTable;
  auth_identities: AuthIdentitiesTable;
  auth_flow_states: AuthFlowStatesTable;
  discord_guilds: DiscordGuildsTable;
}

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface GamesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  name_kana: string;
  cover_url: string | null;
  sort_order: ColumnType<number, number | undefined, number>;
  /** Its listings whose status is active, kept by triggers on listings (migration 0027). */
  active_listings_count: ColumnType<number, never, never>;
  created_at: CreatedAt;
}

export interface InquiriesTable {
  id: Generated<number>;
  name: string;
  email: string;
  category: string;
  body: string;
  created_at: CreatedAt;
}

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface AuthUsersTable {
  id: Generated<string>;
  email: string;
  /** Null for an account made by signing in with Discord, until it sets a password (migration 0018). */
  password_hash: string | null;
  user_metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  last_sign_in_at: Timestamp | null;
  /** Null until the address is confirmed (only asked for when AUTH_CONFIRM_EMAIL=true). */
  email_confirmed_at: Timestamp | null;
  /** Set when the account left (退会): the row stays for its sessions' history, its address freed. */
  deleted_at: Timestamp | null;
  /** When a link mailed to the address was followed (or Discord vouched for it at sign-up): it may be linked by e-mail. */
  email_proven_at: Timestamp | null;
}

export type IdentityProvider = "discord";

/** A way to sign in from another provider, as GoTrue keeps it (migration 0018). */
export interface AuthIdentitiesTable {
  id: Generated<string>;
  user_id: string;
  provider: IdentityProvider;
  /** The provider's id of the person (Discord's user id). */
  provider_id: string;
  identity_data: ColumnType<Record<string, unknown>, string | undefined, string>;
  email: string | null;
  last_sign_in_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One OAuth sign-in or link in progress, then its one-time auth code (migration 0018). */
export interface AuthFlowStatesTable {
  id: Generated<string>;
  state_hash: string;
  provider: IdentityProvider;
  code_challenge: string;
  code_challenge_method: "s256" | "plain";
  redirect_to: string;
  provider_code_verifier: string;
  link_user_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  state_used_at: Timestamp | null;
  auth_code_hash: string | null;
  user_id: string | null;
  auth_code_used_at: Timestamp | null;
}

/** A Discord server a user is in, as of their last Discord sign-in (migration 0018). */
export interface DiscordGuildsTable {
  user_id: string;
  guild_id: string;
  identity_id: string;
  name: string;
  icon: string | null;
}

export interface AuthSessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: CreatedAt;
  refreshed_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  /** How the session began: "password", "signup", "recovery", "email_change", "signup_confirm". */
  method: ColumnType<string, string | undefined, string>;
}

export type OneTimeTokenType = "recovery" | "email_change" | "signup";

export interface AuthOneTimeTokensTable {
  id: Generated<number>;
  token_hash: string;
  user_id: string;
  type: OneTimeTokenType;
  /** The address the link was mailed to (for email_change, the new address). */
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface AuthRefreshTokensTable {
  id: Generated<number>;
  token_hash: string;
  session_id: string;
  parent_id: number | null;
  created_at: CreatedAt;
  used_at: Timestamp | null;
}

export interface RateLimitWindowsTable {
  bucket: string;
  stamps: Date[];
}

export interface RateLimitEventsTable {
  id: Generated<number>;
  bucket: string;
  created_at: CreatedAt;
}

/** A user's last sign of life, for those seen within the last hour (migration 0026; no row: not seen). */
export interface UserPresenceTable {
  user_id: string;
  last_seen_at: Timestamp;
  /** The chat room the user's focused tab shows (migration 0029), said by that tab's socket, repeated while it stays so. */
  focused_room_id: ColumnType<string | null, string | null | undefined, string | null>;
  focused_socket: ColumnType<string | null, string | null | undefined, string | null>;
  focused_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface UsersTable {
  id: string;
  display_name: string;
  avatar_url: string | null;
  bio: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** What `presence` events last said about the user (their last sign of life is in `user_presence`). */
  online_announced: ColumnType<boolean, boolean | undefined, boolean>;
  /** Kept by a trigger on reviews (migration 0012). */
  rating_count: ColumnType<number, never, never>;
  rating_sum: ColumnType<number, never, never>;
  /** Where notification mails go. */
  email: string | null;
  /** Set when the account left (退会). */
  deleted_at: Timestamp | null;
  /** Suspended by the operators until then (issue 27). */
  suspended_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Banned by the operators: no end. */
  banned_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Shows the Discord servers shared with a viewer who agreed too (/settings/privacy; migration 0018). */
  show_discord_guilds: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface UserGamesTable {
  user_id: string;
  game_id: number;
  rank: ColumnType<string, string | undefined, string>;
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

export type ChatRoomType = "DIRECT" | "GROUP" | "BOOKING";
export type ChatMessageType = "TEXT" | "IMAGE" | "ticket_purchased" | "ticket_cancelled" | "SYSTEM";
export interface ChatMessageMetadata {
  caption?: string | null;
  type?: string;
  buyerId?: string;
}

export interface ChatRoomsTable {
  id: Generated<string>;
  type: ColumnType<ChatRoomType, ChatRoomType | undefined, ChatRoomType>;
  name: string | null;
  direct_key: string | null;
  created_at: CreatedAt;
  last_activity_at: UpdatedAt;
  /** The newest message, written with `last_activity_at` by every send. */
  last_message_id: ColumnType<number, number | undefined, number>;
  /** Up to which message the chat digest has settled every member (chat-digest.server.ts). */
  digest_settled_id: ColumnType<number, number | undefined, number>;
}

export interface ChatParticipantsTable {
  room_id: string;
  user_id: string;
  joined_at: CreatedAt;
  last_read_message_id: ColumnType<number, number | undefined, number>;
  /** The chat digest's marks (chat-digest.server.ts): the newest message it looked at, and its last digest's time. */
  digested_message_id: ColumnType<number, number | undefined, number>;
  digested_at: Date | null;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  room_id: string;
  sender_id: string;
  content: string;
  message_type: ColumnType<ChatMessageType, ChatMessageType | undefined, ChatMessageType>;
  metadata: ColumnType<ChatMessageMetadata | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  /** Hidden by the operators (issue 27): shown to its author only. */
  hidden_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The id the sender's app made for it, so that a retry is stored once (issue 38); null for the app's own. */
  client_id: ColumnType<string | null, string | null | undefined, never>;
}

export interface UserBlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: CreatedAt;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  title: string;
  body: ColumnType<string, string | undefined, string>;
  link: string | null;
  read_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface CoinWalletsTable {
  user_id: string;
  purchased: ColumnType<number, number | undefined, number>;
  earned: ColumnType<number, number | undefined, number>;
  updated_at: UpdatedAt;
}

export interface CoinTransactionsTable {
  id: Generated<number>;
  user_id: string;
  kind: string;
  amount: number;
  purchased_after: number;
  earned_after: number;
  fee: ColumnType<number, number | undefined, never>;
  reference: string;
  created_at: CreatedAt;
}

export type EscrowStatus = "held" | "released" | "refunded";
export interface CoinEscrowsTable {
  reference: string;
  payer_id: string;
  payee_id: string;
  purchased: number;
  earned: number;
  status: ColumnType<EscrowStatus, EscrowStatus | undefined, EscrowStatus>;
  created_at: CreatedAt;
  settled_at: Timestamp | null;
}

export type CoinOrderStatus = "pending" | "paid" | "failed" | "expired";
export type PaymentProvider = "test" | "stripe";
export interface CoinOrdersTable {
  id: Generated<number>;
  user_id: string;
  package_id: number;
  coins: number;
  price_jpy: number;
  provider: PaymentProvider;
  provider_ref: string | null;
  checkout_url: string | null;
  status: ColumnType<CoinOrderStatus, CoinOrderStatus | undefined, CoinOrderStatus>;
  idempotency_key: string;
  created_at: CreatedAt;
  settled_at: Timestamp | null;
}

export interface PaymentEventsTable {
  id: string;
  provider: PaymentProvider;
  type: string;
  received_at: CreatedAt;
}

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
  /** Hidden by the operators (issue 27): shown to its author only. */
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
  /** Hidden by the operators (issue 27): shown to its author only. */
  hidden_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type UploadKind = "post" | "avatar" | "chat";
export interface UploadsTable {
  id: Generated<string>;
  owner_id: string;
  kind: UploadKind;
  url: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
  created_at: CreatedAt;
}

export interface PostsTable {
  id: Generated<string>;
  author_id: string;
  content: string | null;
  upload_id: string | null;
  community_id: ColumnType<string | null, string | null | undefined, string | null>;
  is_public: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  /** Hidden by the operators (issue 27): shown to its author only. */
  hidden_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface FootprintsTable {
  visitor_id: string;
  visited_id: string;
  visited_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SubscriptionPlansTable {
  seller_id: string;
  monthly_price: number;
  description: ColumnType<string, string | undefined, string>;
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

export type PayoutStatus = "requested" | "held" | "paid" | "rejected";
export type BankAccountType = "ordinary" | "checking";
export interface PayoutRequestsTable {
  id: Generated<string>;
  seller_id: string;
  coins: number;
  yen_amount: number;
  bank_name: string;
  branch_name: string;
  account_type: BankAccountType;
  account_number: string;
  account_holder: string;
  status: ColumnType<PayoutStatus, PayoutStatus | undefined, PayoutStatus>;
  idempotency_key: string;
  created_at: CreatedAt;
  decided_at: Timestamp | null;
}

export interface EventsTable {
  id: Generated<string>;
  game_id: number;
  title: string;
  description: ColumnType<string, string | undefined, string>;
  starts_at: Timestamp;
  ends_at: Timestamp;
  capacity: number;
  participants_count: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
}

export interface EventParticipantsTable {
  event_id: string;
  user_id: string;
  joined_at: CreatedAt;
  reminded_at: Timestamp | null;
}

export interface CommunitiesTable {
  id: Generated<string>;
  slug: string;
  name: string;
  game_id: number;
  description: ColumnType<string, string | undefined, string>;
  members_count: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
}

export interface CommunityMembersTable {
  community_id: string;
  user_id: string;
  joined_at: CreatedAt;
}

export type Database = Kysely<DB>;
export type Game = Selectable<GamesTable>;
export type NewGame = Insertable<GamesTable>;
export type Inquiry = Selectable<InquiriesTable>;

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  kind: string;
  user_id: string | null;
  topic: string | null;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  sent_at: Timestamp | null;
  failed_at: Timestamp | null;
  last_error: string | null;
}

export interface MailOptOutsTable {
  user_id: string;
  kind: string;
  created_at: CreatedAt;
}

/** A device a user turned Web Push on for (migration 0029, ADR 052). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** 「Chrome（Android）」 */
  label: string;
  created_at: CreatedAt;
  last_success_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface PushOptOutsTable {
  user_id: string;
  kind: string;
  created_at: CreatedAt;
}

export type PushUrgency = "very-low" | "low" | "normal" | "high";

/** A push waiting to be sent to one device (deleted once the push service took it). */
export interface PushOutboxTable {
  id: Generated<number>;
  subscription_id: number;
  kind: string;
  topic: string | null;
  urgency: ColumnType<PushUrgency, PushUrgency | undefined, PushUrgency>;
  /** Seconds the push service keeps it for an offline device. */
  ttl: number;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  failed_at: Timestamp | null;
  last_error: string | null;
}

export type ReportTargetType = "user" | "post" | "chat_message" | "listing" | "review";
export type ReportReason = "spam" | "harassment" | "inappropriate" | "off_platform_payment" | "impersonation" | "other";
export type ReportStatus = "open" | "actioned" | "dismissed";

export interface ReportsTable {
  id: Generated<number>;
  reporter_id: string;
  target_type: ReportTargetType;
  target_id: string;
  target_user_id: string;
  reason: ReportReason;
  note: ColumnType<string, string | undefined, string>;
  status: ColumnType<ReportStatus, ReportStatus | undefined, ReportStatus>;
  created_at: CreatedAt;
  decided_at: Timestamp | null;
}

export type ModerationAction = "hide" | "suspend" | "ban" | "dismiss" | "restore";

/** Append-only: a trigger refuses update and delete. */
export interface ModerationActionsTable {
  id: Generated<number>;
  action: ModerationAction;
  report_id: number | null;
  target_type: string | null;
  target_id: string | null;
  user_id: string | null;
  reason: string;
  until: Timestamp | null;
  created_at: CreatedAt;
}

export interface OffPlatformFlagsTable {
  id: Generated<number>;
  user_id: string;
  target_type: "chat_message" | "post";
  target_id: string;
  created_at: CreatedAt;
}
