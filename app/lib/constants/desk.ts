import type { OperatorRole } from "./moderation";

/**
 * The operators' desk (/admin, ADR 071): its pages and the roles that open each. A page's loader and action guard on
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
