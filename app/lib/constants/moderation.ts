/**
 * Trust and safety (docs/product.md#trust-and-safety): what can be reported, why, and how much. The reasons' Japanese labels
 * are in messages.reports.reasonLabels.
 */
export const REPORT_TARGET_TYPES = ["user", "post", "chat_message", "listing", "review"] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
export const REPORT_REASONS = ["spam", "harassment", "inappropriate", "off_platform_payment", "impersonation", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_NOTE_MAX = 500;
/** Reports a reporter may file in any 24 hours (a second report of the same thing is the first, and does not count). */
export const REPORTS_PER_DAY = 20;
export const REPORTS_WINDOW_MS = 24 * 60 * 60 * 1000;
/** /settings/reports and GET /api/reports show the newest this many. */
export const REPORTS_LIST_MAX = 100;
/**
 * The operators' roles (ADR 068), held in the auth user's app_metadata: moderator decides reports and sanctions,
 * finance handles payouts, admin both and the roles.
 */
export const OPERATOR_ROLES = ["moderator", "finance", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
/** The most rows one page of the operators' audit trail answers. */
export const OPERATOR_AUDIT_PAGE_MAX = 100;
