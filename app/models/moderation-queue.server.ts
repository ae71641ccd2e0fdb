import { sql, type Selectable } from "kysely";
import type { Database, ModerationActionsTable, ReportReason, ReportStatus, ReportTargetType } from "~/infra/db/tables";
import { messageSummary } from "~/lib/chat-summary";
import { UUID } from "../lib/validation/fields";

/**
 * What the operators read before they decide (ADR 030): the open reports grouped by what they are about
 * (`npm run moderation -- list`) and one report with its item, owner and history (`show ID`). The decisions are in
 * ./moderation.server.ts and ./moderation-sanctions.server.ts.
 */

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

/** How many things await a decision: the open reports counted by what they are about (the desk's nav, ADR 071). */
export async function countOpenReportTargets({ db }: { db: Database }): Promise<number> {
  const row = await db
    .selectFrom("reports")
    .select(sql<number>`count(distinct (target_type, target_id))`.as("count"))
    .where("status", "=", "open")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The reported thing's owner as the operators see them: standing, off-platform warnings, payouts held. */
export interface ReportedOwner {
  id: string;
  displayName: string;
  suspendedUntil: Date | null;
  bannedAt: Date | null;
  /** The account was closed (退会). */
  left: boolean;
  offPlatformFlags: number;
  heldPayouts: number;
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
  owner: ReportedOwner;
  otherReports: Array<{ id: number; reason: ReportReason; note: string; status: ReportStatus; createdAt: Date }>;
  history: Array<Selectable<ModerationActionsTable>>;
}

async function contentOf(db: Database, type: ReportTargetType, id: string): Promise<ReportDetail["content"]> {
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
      const row = await db
        .selectFrom("chat_messages as m")
        .leftJoin("uploads as up", "up.id", "m.upload_id")
        .select(["m.content", "m.message_type", "m.metadata", "m.hidden_at", "m.created_at", "up.url"])
        .where("m.id", "=", Number(id))
        .executeTakeFirst();
      if (!row) return null;
      // A picture: its summary and where the operator finds the file (a private reference: DATA_DIR/uploads-private or
      // the bucket's private/, ADR 069).
      const text = row.message_type === "IMAGE" ? `${messageSummary({ messageType: row.message_type, content: row.content, metadata: row.metadata })} [画像: ${row.url ?? row.content}]` : row.content;
      return { text, hiddenAt: row.hidden_at, createdAt: row.created_at };
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
