import type { ColumnType } from "kysely";
import type { CreatedAt, Timestamp, UpdatedAt } from "./columns";

/** Members: their profiles, games, presence, blocks and footprints. */

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
  /** Suspended by the operators until then. */
  suspended_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Banned by the operators: no end. */
  banned_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Shows the Discord servers shared with a viewer who agreed too (/settings/privacy; migration 0018). */
  show_discord_guilds: ColumnType<boolean, boolean | undefined, boolean>;
  /**
   * The account has a confirmed authenticator app, as the app last learnt it (migration 0031): with hosted Supabase,
   * what tells the app that an aal1 session still owes its second step.
   */
  second_step_required: ColumnType<boolean, boolean | undefined, boolean>;
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

export interface UserGamesTable {
  user_id: string;
  game_id: number;
  rank: ColumnType<string, string | undefined, string>;
}

export interface UserBlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: CreatedAt;
}

export interface FootprintsTable {
  visitor_id: string;
  visited_id: string;
  visited_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
