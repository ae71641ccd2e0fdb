import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp } from "./columns";

/** What the operators read and decide: reports, their actions, off-platform payment flags, and inquiries. */

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

/** A message sent through the inquiry form (/inquiry). */
export interface InquiriesTable {
  id: Generated<number>;
  name: string;
  email: string;
  category: string;
  body: string;
  created_at: CreatedAt;
}
