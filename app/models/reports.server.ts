import { sql, type Transaction } from "kysely";
import type { DB, Database, ReportReason, ReportStatus, ReportTargetType } from "~/infra/db/tables";
import { REPORTS_LIST_MAX, REPORTS_PER_DAY, REPORTS_WINDOW_MS } from "~/lib/constants/moderation";
import { DomainError } from "~/lib/domain-error";
import type { ReportInput } from "~/lib/validation/report";
import { getPost } from "./posts.server";
import { notifyReportsChanged } from "./reports-changed.server";
import { lockPresentUsers } from "./user.server";
import { UUID } from "../lib/validation/fields";

/**
 * Reports (通報, docs/product.md#trust-and-safety): a signed-in person reports a user, post, chat message, listing or review that they can
 * see, for the operators (`npm run moderation`). One report per reporter and thing, kept by the database's unique key
 * ("insert … on conflict do nothing, then read"): a second report of the same thing is the first. At most
 * REPORTS_PER_DAY new reports in any 24 hours, counted under a per-reporter lock so two at once cannot both be the
 * twentieth. A reporter sees their own reports only, and of the operators' decision only whether there was one.
 */

export class ReportError extends DomainError<403 | 404 | 422 | 429, "profile_required" | "target_not_found" | "self_report" | "rate_limited"> {}

/** A report as its reporter (and only they) sees it. */
export interface Report {
  id: number;
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  note: string;
  /** open: received; actioned: the operators acted; dismissed: nothing to do. Never what was done. */
  status: ReportStatus;
  createdAt: string;
}

/** A chat message's id: a positive bigint. */
const MESSAGE_ID = /^[1-9][0-9]{0,17}$/;
/** A chat message that is a person's words; the booking notices and system lines are the product's. */
const PERSONAL_MESSAGE_TYPES = ["TEXT", "IMAGE"] as const;
/** Any number no other advisory lock uses: the first key of the per-reporter lock that counts reports. */
const REPORT_LOCK = 27_001;

const notFound = () => new ReportError(404, "target_not_found");

/**
 * Whose the thing is, if the reporter may see it: the user themself, a post's author, a message's sender (the reporter
 * in its room, the sender not blocked by them), a listing's seller, a review's writer. Missing, malformed, hidden by
 * the operators, a subscriber-only post they may not open, an archived listing, or anything of an account that left
 * (its profile says so and offers nothing) is undefined: the caller answers 404, as for anything it cannot see.
 */
export async function findReportTarget({
  db,
  reporterId,
  targetType,
  targetId,
}: {
  db: Database | Transaction<DB>;
  reporterId: string;
  targetType: ReportTargetType;
  targetId: string;
}): Promise<{ ownerId: string } | undefined> {
  const ownerId = await ownerOf(db, reporterId, targetType, targetId);
  if (!ownerId) return undefined;
  const owner = await db.selectFrom("users").select("id").where("id", "=", ownerId).where("deleted_at", "is", null).executeTakeFirst();
  return owner ? { ownerId } : undefined;
}

async function ownerOf(db: Database, reporterId: string, targetType: ReportTargetType, targetId: string): Promise<string | undefined> {
  switch (targetType) {
    case "user": {
      if (!UUID.test(targetId)) return undefined;
      const user = await db.selectFrom("users").select("id").where("id", "=", targetId).executeTakeFirst();
      return user?.id;
    }
    case "post": {
      if (!UUID.test(targetId)) return undefined;
      // Who may open a post is the posts model's rule; a locked card shows nothing to report.
      const post = await getPost({ db, postId: targetId, viewerId: reporterId });
      if (!post || post.locked) return undefined;
      const row = await db.selectFrom("posts").select(["author_id", "hidden_at"]).where("id", "=", targetId).executeTakeFirst();
      return row && (row.hidden_at === null || row.author_id === reporterId) ? row.author_id : undefined;
    }
    case "chat_message": {
      if (!MESSAGE_ID.test(targetId) || BigInt(targetId) > 9223372036854775807n) return undefined;
      const row = await db
        .selectFrom("chat_messages as m")
        .innerJoin("chat_participants as p", (join) => join.onRef("p.room_id", "=", "m.room_id").on("p.user_id", "=", reporterId))
        .select(["m.sender_id", "m.hidden_at"])
        .where("m.id", "=", Number(targetId))
        .where("m.message_type", "in", PERSONAL_MESSAGE_TYPES)
        .where((eb) => eb.not(eb.exists(eb.selectFrom("user_blocks as b").select("b.blocker_id").where("b.blocker_id", "=", reporterId).whereRef("b.blocked_id", "=", "m.sender_id"))))
        .executeTakeFirst();
      return row && (row.hidden_at === null || row.sender_id === reporterId) ? row.sender_id : undefined;
    }
    case "listing": {
      if (!UUID.test(targetId)) return undefined;
      const row = await db.selectFrom("listings").select(["seller_id", "status", "hidden_at"]).where("id", "=", targetId).executeTakeFirst();
      if (!row || (row.seller_id !== reporterId && (row.status === "archived" || row.hidden_at !== null))) return undefined;
      return row.seller_id;
    }
    case "review": {
      if (!UUID.test(targetId)) return undefined;
      const row = await db.selectFrom("reviews").select(["reviewer_id", "hidden_at"]).where("id", "=", targetId).executeTakeFirst();
      return row && (row.hidden_at === null || row.reviewer_id === reporterId) ? row.reviewer_id : undefined;
    }
  }
}

const reportColumns = ["id", "target_type", "target_id", "reason", "note", "status", "created_at"] as const;
type ReportRow = { id: number; target_type: ReportTargetType; target_id: string; reason: ReportReason; note: string; status: ReportStatus; created_at: Date };

function toReport(row: ReportRow): Report {
  return {
    id: Number(row.id),
    targetType: row.target_type,
    targetId: row.target_id,
    reason: row.reason,
    note: row.note,
    status: row.status,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Files a report (POST /api/reports, the /report page and dialog). `created` is false when the reporter had reported
 * this thing already: the answer is that first report, unchanged, and it does not count towards the day's limit.
 * Refused: no profile 403; a target the reporter cannot see 404; their own account or thing 422; a 21st new report
 * within 24 hours 429. A refusal writes nothing.
 */
export async function createReport({
  db,
  reporterId,
  targetType,
  targetId,
  reason,
  note = "",
}: { db: Database; reporterId: string } & Omit<ReportInput, "note"> & { note?: string }): Promise<{ report: Report; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    // One reporter's reports take turns, so the count below is exact: two at once cannot both be the twentieth.
    await sql`select pg_advisory_xact_lock(${REPORT_LOCK}, hashtext(${reporterId}))`.execute(trx);
    const target = await findReportTarget({ db: trx, reporterId, targetType, targetId });
    if (!target) throw notFound();
    // Both rows held for share: neither account can leave (退会) half-way through this report.
    const present = await lockPresentUsers(trx, [reporterId, target.ownerId]);
    if (!present.has(reporterId)) throw new ReportError(403, "profile_required");
    if (!present.has(target.ownerId)) throw notFound();
    if (target.ownerId === reporterId) throw new ReportError(422, "self_report");

    const earlier = await findOwnReport(trx, reporterId, targetType, targetId);
    if (earlier) return { report: earlier, created: false };
    const since = sql<Date>`now() - make_interval(secs => ${REPORTS_WINDOW_MS / 1000})`;
    const { count } = await trx
      .selectFrom("reports")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("reporter_id", "=", reporterId)
      .where("created_at", ">", since)
      .executeTakeFirstOrThrow();
    if (Number(count) >= REPORTS_PER_DAY) throw new ReportError(429, "rate_limited");

    const inserted = await trx
      .insertInto("reports")
      .values({ reporter_id: reporterId, target_type: targetType, target_id: targetId, target_user_id: target.ownerId, reason, note })
      .onConflict((oc) => oc.columns(["reporter_id", "target_type", "target_id"]).doNothing())
      .returning(reportColumns)
      .executeTakeFirst();
    if (inserted) {
      await notifyReportsChanged(trx);
      return { report: toReport(inserted), created: true };
    }
    return { report: (await findOwnReport(trx, reporterId, targetType, targetId))!, created: false };
  });
}

async function findOwnReport(db: Database, reporterId: string, targetType: ReportTargetType, targetId: string) {
  const row = await db
    .selectFrom("reports")
    .select(reportColumns)
    .where("reporter_id", "=", reporterId)
    .where("target_type", "=", targetType)
    .where("target_id", "=", targetId)
    .executeTakeFirst();
  return row ? toReport(row) : undefined;
}

/** The reporter's own reports, newest first (GET /api/reports, /settings/reports); nobody else's, ever. */
export async function listReports({ db, reporterId }: { db: Database; reporterId: string }): Promise<Report[]> {
  const rows = await db
    .selectFrom("reports")
    .select(reportColumns)
    .where("reporter_id", "=", reporterId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(REPORTS_LIST_MAX)
    .execute();
  return rows.map(toReport);
}
