import type { ModerationActionsTable, ReportReason, ReportStatus, ReportTargetType } from "~/infra/db/tables";
import type { Selectable } from "kysely";
import * as text from "~/lib/messages/desk";
import { reasonLabels, statusLabels, targetLabels } from "~/lib/messages/reports";
import { formatDateTime } from "~/lib/time";
import type { TargetContentView } from "~/components/desk-target-view";
import type { TargetContent } from "~/models/desk-targets.server";

/**
 * The desk's records put in words on the server (ADR 071): dates in Asia/Tokyo, reasons, kinds and states as their
 * Japanese labels. The desk's pages render these strings, so their browser code imports no module that a gamer's
 * page loads too (the report labels, the time formatting): the gamers' chunks stay as they were.
 */

/** A member's state: left, banned since, suspended until, or active. */
export function personState(person: { left: boolean; bannedAt: Date | null; suspendedUntil: Date | null }, now = Date.now()) {
  if (person.left) return text.statusLeft;
  if (person.bannedAt) return text.statusBanned(formatDateTime(person.bannedAt));
  if (person.suspendedUntil && person.suspendedUntil.getTime() > now) return text.statusSuspended(formatDateTime(person.suspendedUntil));
  return text.statusActive;
}


export const contentView = (content: TargetContent | null): TargetContentView | null =>
  content ? ({ ...content, createdAt: formatDateTime(content.createdAt), hiddenAt: content.hiddenAt ? formatDateTime(content.hiddenAt) : null } as TargetContentView) : null;

/** A decision of the owner's record in one line: when, what, until when, why. */
export const decisionLine = (action: Selectable<ModerationActionsTable>) => ({
  id: action.id,
  line: `${formatDateTime(action.created_at)} ${text.actionLabels[action.action]}${action.until ? `（${text.until(formatDateTime(action.until))}）` : ""}: ${action.reason}`,
});

/** A report in a list: what it is about (and the desk's page of it), why, when and where it stands. */
export const reportLine = (report: { id: number; targetType: ReportTargetType; targetId: string; reason: ReportReason; status: ReportStatus; createdAt: Date }) => ({
  id: report.id,
  href: `/admin/reports/${report.targetType}/${report.targetId}`,
  targetLabel: targetLabels[report.targetType],
  detail: `${reasonLabels[report.reason]}（${formatDateTime(report.createdAt)}、${statusLabels[report.status]}）`,
});

export { formatDateTime, reasonLabels, statusLabels, targetLabels };
