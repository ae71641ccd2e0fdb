import type { Selectable } from "kysely";
import type { Database, ModerationActionsTable, ReportReason, ReportStatus, ReportTargetType } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import type { ImageStorage } from "~/infra/storage";
import { DESK_DECISION_RATE_LIMIT, DESK_PERSON_ROWS, DESK_QUEUE_MAX } from "~/lib/constants/desk";
import type { DeskDecision } from "~/lib/validation/desk";
import { restore, stopUser } from "./moderation-sanctions.server";
import { dismissReport, hideReported, ModerationError, type DecisionOutcome } from "./moderation.server";
import type { ReportedOwner } from "./moderation-queue.server";
import type { Operator } from "./operator-audit.server";
import { countRateLimitEvents, recordRateLimitEvent } from "./rate-limit.server";
import { contentOf, type TargetContent } from "./desk-targets.server";

/**
 * The operators' desk's report queue and report pages (ADR 071): what ./moderation-queue.server.ts answers the command
 * line, shaped for pages (each reporter's note, the item as its viewers saw it, pictures included), and the desk's
 * decisions, which are the command line's own functions (./moderation.server.ts, ./moderation-sanctions.server.ts).
 */

export interface QueueReport {
  id: number;
  reason: ReportReason;
  note: string;
  reporterName: string;
  createdAt: Date;
}

export interface QueueRow {
  targetType: ReportTargetType;
  targetId: string;
  targetUserId: string;
  targetUserName: string;
  firstReportedAt: Date;
  reports: QueueReport[];
  offPlatformFlags: number;
}

/**
 * The open reports grouped by what they are about, the longest waiting first: one row per target with each of its
 * reports' notes. A reason keeps the targets that have an open report for it (with all their reports); a type keeps
 * that kind of target. At most DESK_QUEUE_MAX rows.
 */
export async function listReportQueue({ db, reason, targetType }: { db: Database; reason?: ReportReason; targetType?: ReportTargetType }): Promise<QueueRow[]> {
  let query = db
    .selectFrom("reports as r")
    .innerJoin("users as owner", "owner.id", "r.target_user_id")
    .innerJoin("users as reporter", "reporter.id", "r.reporter_id")
    .select(["r.id", "r.target_type", "r.target_id", "r.target_user_id", "r.reason", "r.note", "r.created_at", "owner.display_name as owner_name", "reporter.display_name as reporter_name"])
    .where("r.status", "=", "open");
  if (targetType) query = query.where("r.target_type", "=", targetType);
  if (reason) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("reports as same")
          .select("same.id")
          .whereRef("same.target_type", "=", "r.target_type")
          .whereRef("same.target_id", "=", "r.target_id")
          .where("same.status", "=", "open")
          .where("same.reason", "=", reason),
      ),
    );
  }
  const rows = await query.orderBy("r.id").execute();
  const groups = new Map<string, QueueRow>();
  for (const row of rows) {
    const key = `${row.target_type}:${row.target_id}`;
    let group = groups.get(key);
    if (!group) {
      if (groups.size >= DESK_QUEUE_MAX) continue;
      group = { targetType: row.target_type, targetId: row.target_id, targetUserId: row.target_user_id, targetUserName: row.owner_name, firstReportedAt: row.created_at, reports: [], offPlatformFlags: 0 };
      groups.set(key, group);
    }
    group.reports.push({ id: row.id, reason: row.reason, note: row.note, reporterName: row.reporter_name, createdAt: row.created_at });
  }
  const flags = await offPlatformFlagsOf(db, [...new Set([...groups.values()].map((group) => group.targetUserId))]);
  for (const group of groups.values()) group.offPlatformFlags = flags.get(group.targetUserId) ?? 0;
  return [...groups.values()];
}

/** How many off-platform payment warnings each of these people sent anyway (`off_platform_flags`). */
export async function offPlatformFlagsOf(db: Database, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom("off_platform_flags")
    .select(["user_id", (eb) => eb.fn.countAll<number>().as("count")])
    .where("user_id", "in", userIds)
    .groupBy("user_id")
    .execute();
  return new Map(rows.map((row) => [row.user_id, Number(row.count)]));
}

export interface TargetReport extends QueueReport {
  status: ReportStatus;
  decidedAt: Date | null;
}

export interface ReportTargetDetail {
  targetType: ReportTargetType;
  targetId: string;
  content: TargetContent | null;
  reports: TargetReport[];
  owner: ReportedOwner;
  /** The owner's earlier decisions, newest first. */
  history: Array<Selectable<ModerationActionsTable>>;
  /** Reports of the owner's other things (and of them), newest first. */
  otherReports: Array<{ id: number; targetType: ReportTargetType; targetId: string; reason: ReportReason; status: ReportStatus; createdAt: Date }>;
}

/** A reported target's page: its reports (open and decided), the item, its owner and the owner's record; null if never reported. */
export async function getReportTarget({ db, targetType, targetId }: { db: Database; targetType: ReportTargetType; targetId: string }): Promise<ReportTargetDetail | null> {
  const reports = await db
    .selectFrom("reports as r")
    .innerJoin("users as reporter", "reporter.id", "r.reporter_id")
    .select(["r.id", "r.reason", "r.note", "r.status", "r.created_at", "r.decided_at", "r.target_user_id", "reporter.display_name as reporter_name"])
    .where("r.target_type", "=", targetType)
    .where("r.target_id", "=", targetId)
    .orderBy("r.id")
    .execute();
  if (reports.length === 0) return null;
  const ownerId = reports[0]!.target_user_id;
  const [content, owner, flags, held, history, otherReports] = await Promise.all([
    contentOf(db, targetType, targetId),
    db.selectFrom("users").select(["id", "display_name", "suspended_until", "banned_at", "deleted_at"]).where("id", "=", ownerId).executeTakeFirstOrThrow(),
    offPlatformFlagsOf(db, [ownerId]),
    db.selectFrom("payout_requests").select((eb) => eb.fn.countAll<number>().as("count")).where("seller_id", "=", ownerId).where("status", "=", "held").executeTakeFirstOrThrow(),
    db.selectFrom("moderation_actions").selectAll().where("user_id", "=", ownerId).orderBy("id", "desc").limit(DESK_PERSON_ROWS).execute(),
    db
      .selectFrom("reports")
      .select(["id", "target_type", "target_id", "reason", "status", "created_at"])
      .where("target_user_id", "=", ownerId)
      .where((eb) => eb.or([eb("target_type", "<>", targetType), eb("target_id", "<>", targetId)]))
      .orderBy("id", "desc")
      .limit(DESK_PERSON_ROWS)
      .execute(),
  ]);
  return {
    targetType,
    targetId,
    content,
    reports: reports.map((row) => ({ id: row.id, reason: row.reason, note: row.note, reporterName: row.reporter_name, createdAt: row.created_at, status: row.status, decidedAt: row.decided_at })),
    owner: {
      id: owner.id,
      displayName: owner.display_name,
      suspendedUntil: owner.suspended_until,
      bannedAt: owner.banned_at,
      left: owner.deleted_at !== null,
      offPlatformFlags: flags.get(ownerId) ?? 0,
      heldPayouts: Number(held.count),
    },
    history,
    otherReports: otherReports.map((row) => ({ id: row.id, targetType: row.target_type, targetId: row.target_id, reason: row.reason, status: row.status, createdAt: row.created_at })),
  };
}

/** Whether the operator may post another decision now; a try counts before it is judged. */
export async function deskDecisionAllowed(db: Database, operatorId: string) {
  const buckets = [`desk-decision:user:${operatorId}`];
  await recordRateLimitEvent({ db, buckets });
  const [count] = await countRateLimitEvents({ db, buckets, windowMs: DESK_DECISION_RATE_LIMIT.windowMs });
  return count! <= DESK_DECISION_RATE_LIMIT.perUser;
}

/** The report a decision on a target names: its oldest open one, else (a decided target restored) its latest. */
async function reportOf(db: Database, target: { type: ReportTargetType; id: string }, { open }: { open: boolean }) {
  let query = db.selectFrom("reports").select("id").where("target_type", "=", target.type).where("target_id", "=", target.id);
  query = open ? query.where("status", "=", "open").orderBy("id") : query.orderBy("id", "desc");
  return (await query.limit(1).executeTakeFirst())?.id;
}

/**
 * A decision taken on the desk about a reported target or its owner, through the command line's own functions, so the
 * desk and `npm run moderation` follow one rule book: hide and dismiss settle every open report of the target,
 * suspend and ban every open report of the owner's, each with its notifications, its `moderation_actions` row and its
 * row in the audit trail naming the operator.
 */
export async function decideOnTarget({
  db,
  realtime,
  storage,
  operator,
  target,
  ownerId,
  decision,
}: {
  db: Database;
  realtime?: Realtime;
  /** Where a hidden chat message's picture is removed from right after the commit (else by the sweeper, ADR 070). */
  storage?: ImageStorage;
  operator: Operator;
  target: { type: ReportTargetType; id: string } | null;
  ownerId: string;
  decision: DeskDecision;
}): Promise<DecisionOutcome> {
  const input = { db, realtime, operator, reason: decision.reason };
  switch (decision.intent) {
    case "hide":
    case "dismiss": {
      const reportId = target ? await reportOf(db, target, { open: true }) : undefined;
      if (reportId === undefined) throw new ModerationError("already_decided");
      return decision.intent === "hide" ? hideReported({ ...input, reportId, storage }) : dismissReport({ ...input, reportId });
    }
    case "restore": {
      const reportId = target ? await reportOf(db, target, { open: false }) : undefined;
      return reportId === undefined ? restore({ ...input, userId: ownerId }) : restore({ ...input, reportId });
    }
    case "suspend":
      return stopUser({ ...input, userId: ownerId, days: decision.days });
    case "ban":
      return stopUser({ ...input, userId: ownerId });
    case "lift":
      return restore({ ...input, userId: ownerId });
  }
}
