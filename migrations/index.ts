import type { Migration } from "kysely";
import * as m0001 from "./0001_platform";
import * as m0002 from "./0002_accounts";
import * as m0003 from "./0003_chat";
import * as m0004 from "./0004_notifications";
import * as m0005 from "./0005_coins";
import * as m0006 from "./0006_rate_limit_windows";
import * as m0007 from "./0007_bookings";
import * as m0008 from "./0008_reviews";
import * as m0009 from "./0009_posts";
import * as m0010 from "./0010_subscriptions_payouts";
import * as m0011 from "./0011_events_communities";
import * as m0012 from "./0012_explore";
import * as m0013 from "./0013_mail_and_accounts";
import * as m0014 from "./0014_mail_notifications";
import * as m0015 from "./0015_trust_and_safety";
import * as m0016 from "./0016_moderation_effects";
import * as m0017 from "./0017_hidden_review_ratings";
import * as m0018 from "./0018_discord_identities";
import * as m0019 from "./0019_chat_room_newest_indexes";
import * as m0020 from "./0020_listing_seller_online";
import * as m0021 from "./0021_community_newest_members";
import * as m0022 from "./0022_presence_heartbeat_hot";
import * as m0023 from "./0023_posts_gallery_index";
import * as m0024 from "./0024_chat_digest_marks";
import * as m0025 from "./0025_subscription_reminder_index";
import * as m0026 from "./0026_user_presence";
import * as m0027 from "./0027_game_listing_counts";
import * as m0028 from "./0028_chat_client_ids";
import * as m0029 from "./0029_push_subscriptions";
import * as m0030 from "./0030_mfa_factors";
import * as m0031 from "./0031_mfa_recovery_codes";
import * as m0032 from "./0032_session_devices";
import * as m0033 from "./0033_chat_images";
import * as m0034 from "./0034_operator_roles_and_audit";
import * as m0035 from "./0035_media_lifecycle";
import * as m0036 from "./0036_inquiry_replies";
import * as m0037 from "./0037_inquiry_status_audit";

/**
 * Every migration, in order. Migrations are imported statically so the bundled server, the
 * test suite and `npm run db:migrate` all run the same code. Add a line; never edit one that landed.
 */
export const migrations: Record<string, Migration> = {
  "0001_platform": m0001,
  "0002_accounts": m0002,
  "0003_chat": m0003,
  "0004_notifications": m0004,
  "0005_coins": m0005,
  "0006_rate_limit_windows": m0006,
  "0007_bookings": m0007,
  "0008_reviews": m0008,
  "0009_posts": m0009,
  "0010_subscriptions_payouts": m0010,
  "0011_events_communities": m0011,
  "0012_explore": m0012,
  "0013_mail_and_accounts": m0013,
  "0014_mail_notifications": m0014,
  "0015_trust_and_safety": m0015,
  "0016_moderation_effects": m0016,
  "0017_hidden_review_ratings": m0017,
  "0018_discord_identities": m0018,
  "0019_chat_room_newest_indexes": m0019,
  "0020_listing_seller_online": m0020,
  "0021_community_newest_members": m0021,
  "0022_presence_heartbeat_hot": m0022,
  "0023_posts_gallery_index": m0023,
  "0024_chat_digest_marks": m0024,
  "0025_subscription_reminder_index": m0025,
  "0026_user_presence": m0026,
  "0027_game_listing_counts": m0027,
  "0028_chat_client_ids": m0028,
  "0029_push_subscriptions": m0029,
  "0030_mfa_factors": m0030,
  "0031_mfa_recovery_codes": m0031,
  "0032_session_devices": m0032,
  "0033_chat_images": m0033,
  "0034_operator_roles_and_audit": m0034,
  "0035_media_lifecycle": m0035,
  "0036_inquiry_replies": m0036,
  "0037_inquiry_status_audit": m0037,
};
