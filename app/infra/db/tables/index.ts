import type { Insertable, Kysely, Selectable } from "kysely";
import type { AuthFlowStatesTable, AuthIdentitiesTable, AuthMfaChallengesTable, AuthMfaFactorsTable, AuthOneTimeTokensTable, AuthRefreshTokensTable, AuthSessionsTable, AuthUsersTable, DiscordGuildsTable, MfaRecoveryCodesTable, RateLimitEventsTable, RateLimitWindowsTable } from "./auth";
import type { ChatMessagesTable, ChatParticipantsTable, ChatRoomsTable } from "./chat";
import type { CoinEscrowsTable, CoinOrdersTable, CoinTransactionsTable, CoinWalletsTable, PaymentEventsTable, PayoutRequestsTable } from "./coins";
import type { BookingExtensionsTable, BookingsTable, ListingsTable, ReviewsTable, SubscriptionPaymentsTable, SubscriptionPlansTable, SubscriptionsTable } from "./commerce";
import type { CommunitiesTable, CommunityMembersTable, EventParticipantsTable, EventsTable, GamesTable, MediaRemovalsTable, PostsTable, UploadsTable } from "./community";
import type { InquiriesTable, InquiryRepliesTable, ModerationActionsTable, OffPlatformFlagsTable, OperatorAuditTable, ReportsTable } from "./moderation";
import type { MailOptOutsTable, MailOutboxTable, NotificationsTable, PushOptOutsTable, PushOutboxTable, PushSubscriptionsTable } from "./notifications";
import type { FootprintsTable, UserBlocksTable, UserGamesTable, UserPresenceTable, UsersTable } from "./people";

export type * from "./auth";
export type * from "./chat";
export type * from "./coins";
export type * from "./commerce";
export type * from "./community";
export type * from "./moderation";
export type * from "./notifications";
export type * from "./people";

/**
 * The database's tables as Kysely sees them: one interface per table, snake_case as in SQL, each in the file of its
 * domain beside this one. A migration in migrations/ that changes a table changes its interface there.
 */
export interface DB {
  games: GamesTable;
  inquiries: InquiriesTable;
  inquiry_replies: InquiryRepliesTable;
  auth_users: AuthUsersTable;
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  auth_mfa_factors: AuthMfaFactorsTable;
  auth_mfa_challenges: AuthMfaChallengesTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
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
  media_removals: MediaRemovalsTable;
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
  operator_audit: OperatorAuditTable;
  off_platform_flags: OffPlatformFlagsTable;
  auth_identities: AuthIdentitiesTable;
  auth_flow_states: AuthFlowStatesTable;
  discord_guilds: DiscordGuildsTable;
}

export type Database = Kysely<DB>;
export type Game = Selectable<GamesTable>;
export type NewGame = Insertable<GamesTable>;
export type Inquiry = Selectable<InquiriesTable>;
