import type { Selectable, Transaction } from "kysely";
import type { DB, Database, ModerationAction, ModerationActionsTable, ReportTargetType } from "~/infra/db/tables";
import { log } from "~/infra/logger.server";
import type { Realtime } from "~/infra/realtime";
import type { ImageStorage } from "~/infra/storage";
import { messages } from "~/lib/messages";
import { setHidden } from "./hidden.server";
import { dropMessagePicture, removeQueuedMediaNow } from "./media-removal.server";
import { recordOperatorAction, type Operator } from "./operator-audit.server";
import { notifyReportsChanged } from "./reports-changed.server";
import { publishNotifications, recordNotifications, type PendingNotifications } from "./notification.server";

/**
 * The operators' decisions on reports (docs/product.md#trust-and-safety, ADR 030), taken from the command line (`npm run moderation`).
 * Each decision is one transaction (runDecision): its effects, its append-only `moderation_actions` row, its row in the
 * operators' audit trail (`operator_audit`), every open report it settles marked decided, and a notification to each
 * of their reporters (without the details).
 *
 * - hide REPORT: the reported post, chat message, listing or review gets `hidden_at` (a user cannot be hidden); a chat
 *   message's picture is removed (ADR 070).
 * - dismiss REPORT: no effect; the open reports of the same target are closed as dismissed.
 * - suspend, ban and restore: ./moderation-sanctions.server.ts. What the operators read: ./moderation-queue.server.ts.
 */

export type Trx = Transaction<DB>;

export class ModerationError extends Error {
  constructor(readonly code: keyof typeof messages.moderation.errors) {
    super(code);
  }
}

/** The channel a decision notifies with the user's id; server/app.ts closes that user's sockets when it hears it. */
export const SESSIONS_ENDED_CHANNEL = "sessions_ended";

/** What a decision did, for the command's answer. */
export interface DecisionOutcome {
  action: Selectable<ModerationActionsTable>;
  /** False when the item was hidden already: the decision is logged and the reports settled, the item unchanged. */
  changed: boolean;
  /** Open reports the decision closed, and so reporters told. */
  reportsDecided: number;
  sessionsRevoked: number;
  listingsPaused: number;
  listingsReactivated: number;
  bookingsCancelled: Array<{ id: string; buyerId: string; refunded: number }>;
  payoutsHeld: number;
  payoutsRequestedAgain: number;
}

/** What every decision takes. */
export interface DecisionInput {
  db: Database;
  /** Announces the notifications once committed; the command line has none (they are stored, and seen in the list). */
  realtime?: Realtime;
  /** Who decided: the decision's row in the operators' audit trail names them. */
  operator: Operator;
  reason: string;
  now?: Date;
}

/** A decision that did nothing beyond its action row, for each decision to add its counts to. */
export const emptyOutcome = (action: Selectable<ModerationActionsTable>): DecisionOutcome => ({
  action,
  changed: true,
  reportsDecided: 0,
  sessionsRevoked: 0,
  listingsPaused: 0,
  listingsReactivated: 0,
  bookingsCancelled: [],
  payoutsHeld: 0,
  payoutsRequestedAgain: 0,
});

/** The decision's append-only row in `moderation_actions`. */
export async function recordAction(
  trx: Trx,
  values: { action: ModerationAction; reason: string; now: Date; reportId?: number | null; targetType?: string | null; targetId?: string | null; userId?: string | null; until?: Date | null },
) {
  return trx
    .insertInto("moderation_actions")
    .values({
      action: values.action,
      reason: values.reason,
      report_id: values.reportId ?? null,
      target_type: values.targetType ?? null,
      target_id: values.targetId ?? null,
      user_id: values.userId ?? null,
      until: values.until ?? null,
      created_at: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Closes open reports (of one target, or of everything a user owns) and tells each reporter once, in the transaction. */
export async function decideReports(
  trx: Trx,
  which: { targetType: ReportTargetType; targetId: string } | { targetUserId: string },
  status: "actioned" | "dismissed",
  now: Date,
): Promise<{ count: number; pending: PendingNotifications }> {
  let query = trx.updateTable("reports").set({ status, decided_at: now }).where("status", "=", "open");
  query = "targetUserId" in which ? query.where("target_user_id", "=", which.targetUserId) : query.where("target_type", "=", which.targetType).where("target_id", "=", which.targetId);
  const decided = await query.returning("reporter_id").execute();
  if (decided.length > 0) await notifyReportsChanged(trx);
  const reporters = [...new Set(decided.map((row) => row.reporter_id))];
  const body = status === "actioned" ? messages.moderation.actionedBody : messages.moderation.dismissedBody;
  const pending = await recordNotifications(
    trx,
    reporters.map((userId) => ({ userId, type: "report", title: messages.moderation.decidedTitle, body, link: "/settings/reports" })),
  );
  return { count: decided.length, pending };
}

/** The report, locked for the decision; a missing one is not found. */
export async function lockReport(trx: Trx, reportId: number) {
  const report = await trx.selectFrom("reports").selectAll().where("id", "=", reportId).forUpdate().executeTakeFirst();
  if (!report) throw new ModerationError("report_not_found");
  return report;
}

/** The decision's row in the operators' audit trail: on a report's target, or (suspend, ban, a lift) on a person. */
function auditDecision(trx: Trx, operator: Operator, { action, changed }: DecisionOutcome) {
  const onPerson = action.action === "suspend" || action.action === "ban" || (action.action === "restore" && action.target_type === "user");
  return recordOperatorAction(trx, {
    operator,
    kind: onPerson ? "sanction" : "report_decided",
    target: { type: action.target_type as ReportTargetType, id: action.target_id! },
    reason: action.reason,
    details: { action: action.action, moderationActionId: action.id, reportId: action.report_id, userId: action.user_id, until: action.until, changed },
  });
}

/**
 * Runs a decision in one transaction with its row in the operators' audit trail; once it has committed, logs it and
 * announces its notifications.
 */
export async function runDecision<T extends { outcome: DecisionOutcome; pending: PendingNotifications; announce?: (realtime: Realtime) => void }>(
  { db, realtime, operator }: Pick<DecisionInput, "db" | "realtime" | "operator">,
  work: (trx: Trx) => Promise<T>,
) {
  const result = await db.transaction().execute(async (trx) => {
    const done = await work(trx);
    await auditDecision(trx, operator, done.outcome);
    return done;
  });
  // The decision, once committed, in the log too (docs/product.md#operations): moderation_actions and operator_audit are the record.
  const { action } = result.outcome;
  log.info(
    { event: "moderation", actionId: action.id, action: action.action, reportId: action.report_id, targetType: action.target_type, targetId: action.target_id, userId: action.user_id, changed: result.outcome.changed },
    `moderation: ${action.action} #${action.id}`,
  );
  if (realtime) {
    publishNotifications(realtime, result.pending);
    result.announce?.(realtime);
  }
  return result;
}

/**
 * `hide ID`: the reported item hidden for everyone but its author; every open report of it actioned. A hidden chat
 * message's picture is removed (ADR 070): out of the database in the decision's transaction, from the store (given
 * `storage`) once it has committed, else by the sweeper.
 */
export async function hideReported({
  reportId,
  reason,
  now = new Date(),
  storage,
  ...input
}: DecisionInput & { reportId: number; storage?: ImageStorage }): Promise<DecisionOutcome> {
  const why = checkReasonText(reason);
  const { outcome } = await runDecision(input, async (trx) => {
    const report = await lockReport(trx, reportId);
    if (report.target_type === "user") throw new ModerationError("user_not_hideable");
    const hidden = await setHidden({ trx, targetType: report.target_type, targetId: report.target_id, hidden: true, now });
    if (!hidden) throw new ModerationError("target_not_found");
    const { changed } = hidden;
    if (report.target_type === "chat_message") await dropMessagePicture(trx, { messageId: report.target_id });
    const target = { targetType: report.target_type, targetId: report.target_id };
    // Hidden already (by an earlier report of it): the decision is still logged, and the reports still settled.
    const action = await recordAction(trx, { action: "hide", reason: why, now, reportId, ...target, userId: report.target_user_id });
    const decided = await decideReports(trx, target, "actioned", now);
    return { outcome: { ...emptyOutcome(action), changed, reportsDecided: decided.count }, pending: decided.pending };
  });
  await removeQueuedMediaNow({ db: input.db, storage });
  return outcome;
}

/** `dismiss ID`: no effect; the open reports of the same target closed as dismissed, their reporters told. */
export async function dismissReport({ reportId, reason, now = new Date(), ...input }: DecisionInput & { reportId: number }): Promise<DecisionOutcome> {
  const why = checkReasonText(reason);
  const { outcome } = await runDecision(input, async (trx) => {
    const report = await lockReport(trx, reportId);
    if (report.status !== "open") throw new ModerationError("already_decided");
    const target = { targetType: report.target_type, targetId: report.target_id };
    const action = await recordAction(trx, { action: "dismiss", reason: why, now, reportId, ...target, userId: report.target_user_id });
    const decided = await decideReports(trx, target, "dismissed", now);
    return { outcome: { ...emptyOutcome(action), reportsDecided: decided.count }, pending: decided.pending };
  });
  return outcome;
}

/** A decision's reason, trimmed; empty or over 1,000 characters is refused (the table's check says the same). */
export function checkReasonText(reason: string) {
  const trimmed = reason.trim();
  if (trimmed.length === 0 || trimmed.length > 1000) throw new ModerationError("reason_required");
  return trimmed;
}
