import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp } from "./columns";

/** What the operators read and decide: reports, their actions, off-platform payment flags, inquiries, and their audit trail. */

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

export type InquiryStatus = "open" | "answered" | "closed";

/** A message sent through the inquiry form (/inquiry), and where the desk is with it (migration 0036). */
export interface InquiriesTable {
  id: Generated<number>;
  name: string;
  email: string;
  category: string;
  body: string;
  created_at: CreatedAt;
  /** The sender's account when they were signed in while sending. */
  user_id: string | null;
  status: Generated<InquiryStatus>;
  /** The operator who last replied, closed or reopened it, and when. */
  handled_by: string | null;
  handled_label: string | null;
  handled_at: Timestamp | null;
}

/** A reply an operator mailed to an inquiry's sender; one per form key (migration 0036). */
export interface InquiryRepliesTable {
  id: Generated<number>;
  inquiry_id: number;
  operator_id: string | null;
  operator_label: string;
  body: string;
  idempotency_key: string;
  created_at: CreatedAt;
}

/** What an operator did, as `operator_audit.kind` allows it (migrations 0034 and 0037). */
export type OperatorActionKind =
  | "role_granted"
  | "role_revoked"
  | "report_decided"
  | "sanction"
  | "payout_paid"
  | "payout_rejected"
  | "bank_details_revealed"
  | "inquiry_replied"
  | "inquiry_closed"
  | "inquiry_reopened"
  | "two_step_off";

/** What an operator's action was about. */
export type OperatorTargetType = ReportTargetType | "payout" | "inquiry";

/** Every operator action, append-only: a trigger refuses update, delete and truncate (migration 0034). */
export interface OperatorAuditTable {
  id: Generated<number>;
  at: CreatedAt;
  operator_id: string | null;
  operator_label: string;
  kind: OperatorActionKind;
  target_type: OperatorTargetType;
  target_id: string;
  reason: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
}
