import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp } from "./columns";

/** Games and what gathers around them: communities, posts and their images, events. */

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

export interface PostsTable {
  id: Generated<string>;
  author_id: string;
  content: string | null;
  upload_id: string | null;
  community_id: ColumnType<string | null, string | null | undefined, string | null>;
  is_public: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  /** Hidden by the operators: shown to its author only. */
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
  /** A chat picture's small variant for thumbnails (a private reference like `url`); null for the other kinds. */
  variant_url: ColumnType<string | null, string | null | undefined, never>;
  /** The picture's dominant colour, `#rrggbb`, shown in the thumbnail's box until it loads (ADR 070); null for older uploads. */
  placeholder: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
}

/** An object of the image store to remove once the database no longer names it (ADR 070), retried by the sweeper. */
export interface MediaRemovalsTable {
  id: Generated<number>;
  /** A public URL or a private reference, as `uploads.url` held it. */
  url: string;
  reason: "hidden" | "account_closed" | "unsent";
  created_at: CreatedAt;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
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
