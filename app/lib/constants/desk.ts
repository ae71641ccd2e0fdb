import type { OperatorRole } from "./moderation";

/**
 * The operators' desk (/admin, ADR 071): its pages and the roles that open each. What the desk's pages import in the
 * browser is theirs alone or the shell's (the labels of reports and coins are put in words by the loaders), so the
 * desk changes no chunk that a gamer's page loads. A page's loader and action guard on
 * the same list (`requireOperator(request, context, DESK_PAGES.x.roles)`, app/http/desk.server.ts) that the desk's
 * navigation shows links by, so a link is shown exactly where the page would open.
 */
export const DESK_PAGES = {
  reports: { path: "/admin/reports", roles: ["moderator", "admin"] },
  users: { path: "/admin/users", roles: ["moderator", "finance", "admin"] },
  payouts: { path: "/admin/payouts", roles: ["finance", "admin"] },
  inquiries: { path: "/admin/inquiries", roles: ["moderator", "admin"] },
  audit: { path: "/admin/audit", roles: ["admin"] },
} as const satisfies Record<string, { path: string; roles: readonly OperatorRole[] }>;
export type DeskPage = keyof typeof DESK_PAGES;
/** Any operator: the desk's index and its two-step page. */
export const ANY_OPERATOR: readonly OperatorRole[] = ["moderator", "finance", "admin"];
/** Who may act on a person (suspend, ban, restore) from the desk: the roles that decide reports. */
export const SANCTION_ROLES: readonly OperatorRole[] = ["moderator", "admin"];

/** Whether roles open a page that needs one of `needed`. */
export const rolesAllow = (roles: readonly OperatorRole[], needed: readonly OperatorRole[]) => roles.some((role) => needed.includes(role));

/** The desk pages a person with these roles may open, in the navigation's order. */
export const deskPagesFor = (roles: readonly OperatorRole[]) => (Object.keys(DESK_PAGES) as DeskPage[]).filter((page) => rolesAllow(roles, DESK_PAGES[page].roles));

/** The longest suspension the desk gives, as the command line's `suspend --days` (ten years). */
export const SUSPEND_DAYS_MAX = 3650;
/** A decision's reason, as `moderation_actions` and `operator_audit` keep it. */
export const DECISION_REASON_MAX = 1000;
/** The most target rows the report queue shows at once (the oldest first). */
export const DESK_QUEUE_MAX = 100;
/** What a person's page lists of each of their things (ledger rows, listings, bookings, reports, decisions). */
export const DESK_PERSON_ROWS = 20;
/** The most people a search answers. */
export const DESK_SEARCH_MAX = 30;
/** Decisions one operator may post in a window: plenty for a person, a wall for a script gone wrong. */
export const DESK_DECISION_RATE_LIMIT = { perUser: 60, windowMs: 10 * 60 * 1000 } as const;

/** What the audit trail's rows can say was done (`operator_audit.kind`, the check of migrations 0034 and 0037), for its filter. */
export const OPERATOR_AUDIT_KINDS = [
  "role_granted",
  "role_revoked",
  "report_decided",
  "sanction",
  "payout_paid",
  "payout_rejected",
  "bank_details_revealed",
  "inquiry_replied",
  "inquiry_closed",
  "inquiry_reopened",
  "two_step_off",
] as const;
/** What a trail's row can be about (`operator_audit.target_type`). */
export const AUDIT_TARGET_TYPES = ["user", "post", "chat_message", "listing", "review", "payout", "inquiry"] as const;

/**
 * The live count of open reports (ADR 071): the event carrying it, `{ openReports }`, and the Socket.IO channel that
 * only the sockets of operators who decide reports, signed in with the second step, join when they connect.
 */
export const DESK_REPORTS_EVENT = "desk:reports" as const;
export const DESK_REPORTS_CHANNEL = "desk:reports";
