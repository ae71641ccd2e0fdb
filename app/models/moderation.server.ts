import { sql, type Selectable, type Transaction } from "kysely";
import type { DB, Database, ModerationAction, ModerationActionsTable, ReportReason, ReportStatus, ReportTargetType } from "~/infra/db/schema";
import { log } from "~/infra/logger.server";
import type { Realtime } from "~/infra/realtime";
import { messages } from "~/lib/messages";
import { cancelOpenBookingsByModeration } from "./bookings.server";
import { setHidden } from "./hidden.server";
import { publishNotifications, recordNotifications, type PendingNotifications } from "./notification.server";

/**
 * The operators' decisions on reports (PRODUCT §10, ADR 030), taken from the command line (`npm run moderation`).
 * Each decision is one transaction: its effects, its append-only `moderation_actions` row, every open report it
 * settles marked decided, and a notification to each of their reporters (without the details).
 *
 * - hide REPORT: the reported post, chat message, listing or review gets `hidden_at` (a user cannot be hidden).
 * - dismiss REPORT: no effect; the open reports of the same target are closed as dismissed.
 * - suspend USER / ban USER: the user's row locked first; `suspended_until` / `banned_at` set, every session revoked,
 *   active listings paused (marked, so lifting reactivates them), open bookings either side cancelled with the escrow
 *   back to the buyer through the ledger, requested payouts held, and `sessions_ended` notified so the server process
 *   closes the user's sockets when this commits.
 * - restore REPORT|USER: un-hides the reported item, or lifts the user's suspension or ban (listings the suspension
 *   paused active again, held payouts requested again); refunded bookings stay refunded.
 */

type Trx = Transaction<DB>;

export class ModerationError extends Error {
  constructor(readonly code: keyof typeof messages.moderation.errors) {
    super(code);
  }
}

/** The channel a decision notifies with the user's id; server/app.ts closes that user's sockets when it hears it. */
export const SESSIONS_ENDED_CHANNEL = "sessions_ended";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether `id` can be a row id of the target's table (uuids, chat messages' bigints), so a lookup cannot fail on a cast. */
const validTargetId = (type: ReportTargetType, id: string) => (type === "chat_message" ? /^[1-9]\d{0,17}$/.test(id) : UUID.test(id));

export interface ReportGroup {
  targetType: ReportTargetType;
  targetId: string;
  targetUserId: string;
  targetUserName: string;
  reportIds: number[];
  count: number;
  reasons: Partial<Record<ReportReason, number>>;
  firstReportedAt: Date;
  /** Off-platform payment warnings the target's owner sent anyway (`off_platform_flags`). */
  offPlatformFlags: number;
}

/** Open reports grouped by what they are about, most reported first (then the oldest): `npm run moderation -- list`. */
export async function listOpenReports({ db }: { db: Database }): Promise<ReportGroup[]> {
  const rows = await db
    .selectFrom("reports as r")
    .innerJoin("users as u", "u.id", "r.target_user_id")
    .select(["r.id", "r.target_type", "r.target_id", "r.target_user_id", "r.reason", "r.created_at", "u.display_name"])
    .where("r.status", "=", "open")
    .orderBy("r.id")
    .execute();
  const groups = new Map<string, ReportGroup>();
  for (const row of rows) {
    const key = `${row.target_type}:${row.target_id}`;
    const group =
      groups.get(key) ??
      groups
        .set(key, {
          targetType: row.target_type,
          targetId: row.target_id,
          targetUserId: row.target_user_id,
          targetUserName: row.display_name,
          reportIds: [],
          count: 0,
          reasons: {},
          firstReportedAt: row.created_at,
          offPlatformFlags: 0,
        })
        .get(key)!;
    group.reportIds.push(row.id);
    group.count++;
    group.reasons[row.reason] = (group.reasons[row.reason] ?? 0) + 1;
  }
  const userIds = [...new Set([...groups.values()].map((group) => group.targetUserId))];
  if (userIds.length) {
    const flags = await db
      .selectFrom("off_platform_flags")
      .select(["user_id", (eb) => eb.fn.countAll<number>().as("count")])
      .where("user_id", "in", userIds)
      .groupBy("user_id")
      .execute();
    const byUser = new Map(flags.map((row) => [row.user_id, Number(row.count)]));
    for (const group of groups.values()) group.offPlatformFlags = byUser.get(group.targetUserId) ?? 0;
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || a.firstReportedAt.getTime() - b.firstReportedAt.getTime());
}

export interface ReportDetail {
  report: {
    id: number;
    reporterId: string;
    reporterName: string;
    targetType: ReportTargetType;
    targetId: string;
    reason: ReportReason;
    note: string;
    status: ReportStatus;
    createdAt: Date;
    decidedAt: Date | null;
  };
  /** What was reported, as text, or null when it no longer exists. */
  content: { text: string; hiddenAt: Date | null; createdAt: Date } | null;
  owner: {
    id: string;
    displayName: string;
    suspendedUntil: Date | null;
    bannedAt: Date | null;
    left: boolean;
    offPlatformFlags: number;
    heldPayouts: number;
  };
  otherReports: Array<{ id: number; reason: ReportReason; note: string; status: ReportStatus; createdAt: Date }>;
  history: Array<Selectable<ModerationActionsTable>>;
}

async function contentOf(db: Database | Trx, type: ReportTargetType, id: string): Promise<ReportDetail["content"]> {
  if (type === "user") {
    if (!UUID.test(id)) return null;
    const user = await db.selectFrom("users").select(["display_name", "bio", "created_at"]).where("id", "=", id).executeTakeFirst();
    return user ? { text: `${user.display_name}\n${user.bio}`.trim(), hiddenAt: null, createdAt: user.created_at } : null;
  }
  if (!validTargetId(type, id)) return null;
  switch (type) {
    case "post": {
      const row = await db.selectFrom("posts").select(["content", "upload_id", "hidden_at", "created_at"]).where("id", "=", id).executeTakeFirst();
      return row ? { text: `${row.content ?? ""}${row.upload_id ? " [画像あり]" : ""}`.trim(), hiddenAt: row.hidden_at, createdAt: row.created_at } : null;
    }
    case "chat_message": {
      const row = await db.selectFrom("chat_messages").select(["content", "hidden_at", "created_at"]).where("id", "=", Number(id)).executeTakeFirst();
      return row ? { text: row.content, hiddenAt: row.hidden_at, createdAt: row.created_at } : null;
    }
    case "listing": {
      const row = await db.selectFrom("listings").select(["title", "description", "hidden_at", "created_at"]).where("id", "=", id).executeTakeFirst();
      return row ? { text: `${row.title}\n${row.description}`.trim(), hiddenAt: row.hidden_at, createdAt: row.created_at } : null;
    }
    case "review": {
      const row = await db.selectFrom("reviews").select(["rating", "comment", "hidden_at", "created_at"]).where("id", "=", id).executeTakeFirst();
      return row ? { text: `★${row.rating} ${row.comment}`.trim(), hiddenAt: row.hidden_at, createdAt: row.created_at } : null;
    }
  }
}

/** One report with what it is about, its owner, the other reports of it and the owner's history: `show ID`. */
export async function getReportDetail({ db, reportId }: { db: Database; reportId: number }): Promise<ReportDetail | null> {
  const report = await db
    .selectFrom("reports as r")
    .innerJoin("users as reporter", "reporter.id", "r.reporter_id")
    .selectAll("r")
    .select("reporter.display_name as reporter_name")
    .where("r.id", "=", reportId)
    .executeTakeFirst();
  if (!report) return null;
  const [content, owner, flags, held, otherReports, history] = await Promise.all([
    contentOf(db, report.target_type, report.target_id),
    db.selectFrom("users").select(["id", "display_name", "suspended_until", "banned_at", "deleted_at"]).where("id", "=", report.target_user_id).executeTakeFirstOrThrow(),
    db.selectFrom("off_platform_flags").select((eb) => eb.fn.countAll<number>().as("count")).where("user_id", "=", report.target_user_id).executeTakeFirstOrThrow(),
    db.selectFrom("payout_requests").select((eb) => eb.fn.countAll<number>().as("count")).where("seller_id", "=", report.target_user_id).where("status", "=", "held").executeTakeFirstOrThrow(),
    db
      .selectFrom("reports")
      .select(["id", "reason", "note", "status", "created_at"])
      .where("target_type", "=", report.target_type)
      .where("target_id", "=", report.target_id)
      .where("id", "<>", report.id)
      .orderBy("id")
      .execute(),
    db.selectFrom("moderation_actions").selectAll().where("user_id", "=", report.target_user_id).orderBy("id", "desc").limit(50).execute(),
  ]);
  return {
    report: {
      id: report.id,
      reporterId: report.reporter_id,
      reporterName: report.reporter_name,
      targetType: report.target_type,
      targetId: report.target_id,
      reason: report.reason,
      note: report.note,
      status: report.status,
      createdAt: report.created_at,
      decidedAt: report.decided_at,
    },
    content,
    owner: {
      id: owner.id,
      displayName: owner.display_name,
      suspendedUntil: owner.suspended_until,
      bannedAt: owner.banned_at,
      left: owner.deleted_at !== null,
      offPlatformFlags: Number(flags.count),
      heldPayouts: Number(held.count),
    },
    otherReports: otherReports.map((row) => ({ id: row.id, reason: row.reason, note: row.note, status: row.status, createdAt: row.created_at })),
    history,
  };
}

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

interface Common {
  db: Database;
  /** Announces the notifications once committed; the command line has none (they are stored, and seen in the list). */
  realtime?: Realtime;
  reason: string;
  now?: Date;
}

const emptyOutcome = (action: Selectable<ModerationActionsTable>): DecisionOutcome => ({
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

async function recordAction(
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
async function decideReports(
  trx: Trx,
  which: { targetType: ReportTargetType; targetId: string } | { targetUserId: string },
  status: "actioned" | "dismissed",
  now: Date,
): Promise<{ count: number; pending: PendingNotifications }> {
  let query = trx.updateTable("reports").set({ status, decided_at: now }).where("status", "=", "open");
  query = "targetUserId" in which ? query.where("target_user_id", "=", which.targetUserId) : query.where("target_type", "=", which.targetType).where("target_id", "=", which.targetId);
  const decided = await query.returning("reporter_id").execute();
  const reporters = [...new Set(decided.map((row) => row.reporter_id))];
  const body = status === "actioned" ? messages.moderation.actionedBody : messages.moderation.dismissedBody;
  const pending = await recordNotifications(
    trx,
    reporters.map((userId) => ({ userId, type: "report", title: messages.moderation.decidedTitle, body, link: "/settings/reports" })),
  );
  return { count: decided.length, pending };
}

async function lockReport(trx: Trx, reportId: number) {
  const report = await trx.selectFrom("reports").selectAll().where("id", "=", reportId).forUpdate().executeTakeFirst();
  if (!report) throw new ModerationError("report_not_found");
  return report;
}

async function run<T extends { pending: PendingNotifications; announce?: (realtime: Realtime) => void }>(db: Database, realtime: Realtime | undefined, work: (trx: Trx) => Promise<T>) {
  const result = await db.transaction().execute(work);
  // The decision, once committed, in the log too (PRODUCT §11): moderation_actions is the record, this the trail.
  const outcome = (result as { outcome?: DecisionOutcome }).outcome;
  if (outcome?.action) {
    const { action } = outcome;
    log.info(
      { event: "moderation", actionId: action.id, action: action.action, reportId: action.report_id, targetType: action.target_type, targetId: action.target_id, userId: action.user_id, changed: outcome.changed },
      `moderation: ${action.action} #${action.id}`,
    );
  }
  if (realtime) {
    publishNotifications(realtime, result.pending);
    result.announce?.(realtime);
  }
  return result;
}

/** `hide ID`: the reported item hidden for everyone but its author; every open report of it actioned. */
export async function hideReported({ db, realtime, reportId, reason, now = new Date() }: Common & { reportId: number }): Promise<DecisionOutcome> {
  const why = checkReasonText(reason);
  const { outcome } = await run(db, realtime, async (trx) => {
    const report = await lockReport(trx, reportId);
    if (report.target_type === "user") throw new ModerationError("user_not_hideable");
    const hidden = await setHidden({ trx, targetType: report.target_type, targetId: report.target_id, hidden: true, now });
    if (!hidden) throw new ModerationError("target_not_found");
    const { changed } = hidden;
    const target = { targetType: report.target_type, targetId: report.target_id };
    // Hidden already (by an earlier report of it): the decision is still logged, and the reports still settled.
    const action = await recordAction(trx, { action: "hide", reason: why, now, reportId, ...target, userId: report.target_user_id });
    const decided = await decideReports(trx, target, "actioned", now);
    return { outcome: { ...emptyOutcome(action), changed, reportsDecided: decided.count }, pending: decided.pending };
  });
  return outcome;
}

/** `dismiss ID`: no effect; the open reports of the same target closed as dismissed, their reporters told. */
export async function dismissReport({ db, realtime, reportId, reason, now = new Date() }: Common & { reportId: number }): Promise<DecisionOutcome> {
  const why = checkReasonText(reason);
  const { outcome } = await run(db, realtime, async (trx) => {
    const report = await lockReport(trx, reportId);
    if (report.status !== "open") throw new ModerationError("already_decided");
    const target = { targetType: report.target_type, targetId: report.target_id };
    const action = await recordAction(trx, { action: "dismiss", reason: why, now, reportId, ...target, userId: report.target_user_id });
    const decided = await decideReports(trx, target, "dismissed", now);
    return { outcome: { ...emptyOutcome(action), reportsDecided: decided.count }, pending: decided.pending };
  });
  return outcome;
}

/** Locks a user's row (the first thing a suspension, ban or lift does); a missing or left account is not found. */
async function lockUser(trx: Trx, userId: string) {
  if (!UUID.test(userId)) throw new ModerationError("user_not_found");
  const user = await trx.selectFrom("users").select(["id", "deleted_at", "suspended_until", "banned_at"]).where("id", "=", userId).forUpdate().executeTakeFirst();
  if (!user || user.deleted_at) throw new ModerationError("user_not_found");
  return user;
}

/**
 * `suspend USER_ID --days N` (until = now + N days) and `ban USER_ID` (no end). The user's row is locked before
 * anything else, so a booking that takes it `FOR SHARE` (lockPresentUsers) either committed before, and is cancelled
 * here, or waits and is refused: no booking is ever left in escrow with a stopped seller. A suspension of someone
 * suspended sets the new end; of someone banned is refused.
 */
export async function stopUser({
  db,
  realtime,
  userId,
  days,
  reason,
  now = new Date(),
}: Common & { userId: string; /** Days of suspension; none is a ban. */ days?: number }): Promise<DecisionOutcome> {
  const why = checkReasonText(reason);
  const ban = days === undefined;
  const { outcome } = await run(db, realtime, async (trx) => {
    const user = await lockUser(trx, userId);
    if (user.banned_at) throw new ModerationError("already_banned");
    const until = ban ? null : new Date(now.getTime() + days * 86_400_000);
    await trx
      .updateTable("users")
      .set(ban ? { banned_at: now, suspended_until: null } : { suspended_until: until })
      .where("id", "=", userId)
      .execute();
    const sessions = await trx
      .updateTable("auth_sessions")
      .set({ revoked_at: now, revoked_reason: ban ? "banned" : "suspended" })
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .returning("id")
      .execute();
    // Delivered when this commits, to every process listening (server/app.ts closes the user's sockets).
    await sql`select pg_notify(${SESSIONS_ENDED_CHANNEL}, ${userId})`.execute(trx);
    const paused = await trx
      .updateTable("listings")
      .set({ status: "paused", moderation_paused_at: now, updated_at: now })
      .where("seller_id", "=", userId)
      .where("status", "=", "active")
      .returning("id")
      .execute();
    const bookings = await cancelOpenBookingsByModeration(trx, { userId, now });
    const held = await trx
      .updateTable("payout_requests")
      .set({ status: "held" })
      .where("seller_id", "=", userId)
      .where("status", "=", "requested")
      .returning("id")
      .execute();
    const action = await recordAction(trx, { action: ban ? "ban" : "suspend", reason: why, now, userId, targetType: "user", targetId: userId, until });
    const decided = await decideReports(trx, { targetUserId: userId }, "actioned", now);
    return {
      outcome: {
        ...emptyOutcome(action),
        reportsDecided: decided.count,
        sessionsRevoked: sessions.length,
        listingsPaused: paused.length,
        bookingsCancelled: bookings.cancelled.map((row) => ({ id: row.id, buyerId: row.buyer_id, refunded: row.total_price })),
        payoutsHeld: held.length,
      },
      pending: decided.pending,
      announce: bookings.announce,
    };
  });
  return outcome;
}

/**
 * `restore ID`: a report's id un-hides its item when the item is hidden; otherwise (a user's report, or the item not
 * hidden) and for a USER_ID, lifts the owner's suspension or ban: the listings the suspension paused are active
 * again, held payouts requested again. Refunded bookings stay refunded, closed sessions closed. Reports stay decided.
 */
export async function restore({ db, realtime, reportId, userId, reason, now = new Date() }: Common & { reportId?: number; userId?: string }): Promise<DecisionOutcome> {
  const why = checkReasonText(reason);
  const { outcome } = await run(db, realtime, async (trx) => {
    let ownerId = userId;
    if (reportId !== undefined) {
      const report = await lockReport(trx, reportId);
      ownerId = report.target_user_id;
      if (report.target_type !== "user") {
        const unhidden = await setHidden({ trx, targetType: report.target_type, targetId: report.target_id, hidden: false, now });
        if (unhidden?.changed) {
          const action = await recordAction(trx, {
            action: "restore",
            reason: why,
            now,
            reportId,
            targetType: report.target_type,
            targetId: report.target_id,
            userId: report.target_user_id,
          });
          return { outcome: emptyOutcome(action), pending: [] };
        }
      }
    }
    const user = await lockUser(trx, ownerId!);
    const stopped = user.banned_at !== null || user.suspended_until !== null;
    const reactivated = await trx
      .updateTable("listings")
      .set({ status: "active", moderation_paused_at: null, updated_at: now })
      .where("seller_id", "=", user.id)
      .where("moderation_paused_at", "is not", null)
      .where("status", "=", "paused")
      .returning("id")
      .execute();
    // A listing its seller archived meanwhile keeps its state; only the mark goes.
    await trx.updateTable("listings").set({ moderation_paused_at: null }).where("seller_id", "=", user.id).where("moderation_paused_at", "is not", null).execute();
    const requested = await trx.updateTable("payout_requests").set({ status: "requested" }).where("seller_id", "=", user.id).where("status", "=", "held").returning("id").execute();
    if (!stopped && reactivated.length === 0 && requested.length === 0) throw new ModerationError("nothing_to_restore");
    await trx.updateTable("users").set({ suspended_until: null, banned_at: null }).where("id", "=", user.id).execute();
    const action = await recordAction(trx, { action: "restore", reason: why, now, reportId: reportId ?? null, targetType: "user", targetId: user.id, userId: user.id });
    return { outcome: { ...emptyOutcome(action), listingsReactivated: reactivated.length, payoutsRequestedAgain: requested.length }, pending: [] };
  });
  return outcome;
}

/** A decision's reason, trimmed; empty or over 1,000 characters is refused (the table's check says the same). */
export function checkReasonText(reason: string) {
  const trimmed = reason.trim();
  if (trimmed.length === 0 || trimmed.length > 1000) throw new ModerationError("reason_required");
  return trimmed;
}
