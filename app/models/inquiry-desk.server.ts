import { sql } from "kysely";
import type { Database, InquiryStatus } from "~/infra/db/tables";
import { INQUIRY_DESK_PAGE, INQUIRY_DESK_RATE_LIMIT, INQUIRY_EARLIER_MAX } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { enqueueMail } from "./mail-outbox.server";
import { recordOperatorAction, type Operator } from "./operator-audit.server";
import { rateLimitWindowCte } from "./rate-limit.server";

/**
 * The inquiries queue of the operators' desk (/admin/inquiries, ADR 072). An inquiry is open until an operator replies
 * (answered) or closes it; a reply is mailed to the address the sender gave, through the mail outbox, in the same
 * transaction as the reply's row, the inquiry's new status and the `inquiry_replied` row of the audit trail: all four
 * exist or none. The form's key makes the same reply posted twice one reply and one mail.
 */

export class InquiryDeskError extends DomainError<404 | 409 | 429, "inquiry_not_found" | "inquiry_closed" | "rate_limited"> {}

export interface DeskInquiry {
  id: number;
  name: string;
  email: string;
  category: string;
  body: string;
  status: InquiryStatus;
  createdAt: string;
  handledLabel: string | null;
  handledAt: string | null;
  /** The sender's account, when they were signed in while sending and it still exists. */
  sender: { id: string; displayName: string } | null;
}

export interface InquiryReply {
  id: number;
  operatorLabel: string;
  body: string;
  createdAt: string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function inquiriesWithSender(db: Database) {
  return db
    .selectFrom("inquiries as i")
    .leftJoin("users as u", (join) => join.onRef("u.id", "=", "i.user_id").on("u.deleted_at", "is", null))
    .select(["i.id", "i.name", "i.email", "i.category", "i.body", "i.status", "i.created_at", "i.handled_label", "i.handled_at", "u.id as sender_id", "u.display_name as sender_name"]);
}

type InquiryRow = Awaited<ReturnType<ReturnType<typeof inquiriesWithSender>["executeTakeFirstOrThrow"]>>;

function toInquiry(row: InquiryRow): DeskInquiry {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    category: row.category,
    body: row.body,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    handledLabel: row.handled_label,
    handledAt: iso(row.handled_at),
    sender: row.sender_id && row.sender_name ? { id: row.sender_id, displayName: row.sender_name } : null,
  };
}

/**
 * A page of the queue: open inquiries first, then the rest, each oldest first (the longest waiting on top); one status
 * only when asked. `page` counts from 0; `more` says whether a next page exists.
 */
export async function listInquiries({ db, status, page = 0 }: { db: Database; status?: InquiryStatus; page?: number }) {
  let query = inquiriesWithSender(db);
  if (status) query = query.where("i.status", "=", status);
  const rows = await query
    .orderBy(sql`i.status = 'open'`, "desc")
    .orderBy("i.created_at")
    .orderBy("i.id")
    .limit(INQUIRY_DESK_PAGE + 1)
    .offset(page * INQUIRY_DESK_PAGE)
    .execute();
  return { inquiries: rows.slice(0, INQUIRY_DESK_PAGE).map(toInquiry), more: rows.length > INQUIRY_DESK_PAGE };
}

/** How many inquiries wait in each status. */
export async function countInquiries({ db }: { db: Database }): Promise<Record<InquiryStatus, number>> {
  const rows = await db.selectFrom("inquiries").select(["status", (eb) => eb.fn.countAll<number>().as("n")]).groupBy("status").execute();
  const counts: Record<InquiryStatus, number> = { open: 0, answered: 0, closed: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** One inquiry with its replies (oldest first) and the earlier inquiries of the same address (newest first); null if none. */
export async function getInquiry({ db, id }: { db: Database; id: number }) {
  const row = await inquiriesWithSender(db).where("i.id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [replies, earlier] = await Promise.all([
    db.selectFrom("inquiry_replies").select(["id", "operator_label", "body", "created_at"]).where("inquiry_id", "=", id).orderBy("id").execute(),
    inquiriesWithSender(db)
      .where(sql<string>`lower(i.email)`, "=", row.email.toLowerCase())
      .where("i.id", "!=", id)
      .orderBy("i.created_at", "desc")
      .orderBy("i.id", "desc")
      .limit(INQUIRY_EARLIER_MAX)
      .execute(),
  ]);
  return {
    inquiry: toInquiry(row),
    replies: replies.map((reply): InquiryReply => ({ id: Number(reply.id), operatorLabel: reply.operator_label, body: reply.body, createdAt: reply.created_at.toISOString() })),
    earlier: earlier.map(toInquiry),
  };
}

/** Counts one of the operator's posts on the inquiries desk in `trx`; a refusal is a 429 and rolls the post back. */
async function admitInquiryDeskPost(trx: Database, operator: Operator) {
  const counted = await sql<{ bucket: string }>`with admitted as (select 1),
    ${rateLimitWindowCte({ bucket: `desk:inquiries:${operator.id ?? operator.label}`, ...INQUIRY_DESK_RATE_LIMIT, from: "admitted" })}
    select bucket from rate_limit_counted`.execute(trx);
  if (counted.rows.length === 0) throw new InquiryDeskError(429, "rate_limited");
}

/** The inquiry's row, locked for the rest of the transaction (two operators' posts about one inquiry take turns). */
async function lockInquiry(trx: Database, id: number) {
  const row = await trx.selectFrom("inquiries").select(["id", "name", "email", "body", "status"]).where("id", "=", id).forUpdate().executeTakeFirst();
  if (!row) throw new InquiryDeskError(404, "inquiry_not_found");
  return row;
}

/**
 * Mails a reply to the inquiry's sender (the outbox: sent after the commit, retried, never lost) and marks the
 * inquiry answered, with the reply's row and the audit trail's `inquiry_replied`, in one transaction. The same `key`
 * again (a double click, a retried post) answers the first reply with `isNew` false and writes nothing. A closed
 * inquiry takes no reply (reopen it first).
 */
export async function replyToInquiry({ db, operator, inquiryId, body, key }: { db: Database; operator: Operator; inquiryId: number; body: string; key: string }) {
  return db.transaction().execute(async (trx) => {
    const inquiry = await lockInquiry(trx, inquiryId);
    const first = await trx.selectFrom("inquiry_replies").select("id").where("inquiry_id", "=", inquiryId).where("idempotency_key", "=", key).executeTakeFirst();
    if (first) return { replyId: Number(first.id), isNew: false };
    if (inquiry.status === "closed") throw new InquiryDeskError(409, "inquiry_closed");
    await admitInquiryDeskPost(trx, operator);
    const reply = await trx
      .insertInto("inquiry_replies")
      .values({ inquiry_id: inquiryId, operator_id: operator.id, operator_label: operator.label, body, idempotency_key: key })
      .returning("id")
      .executeTakeFirstOrThrow();
    await enqueueMail(trx, [
      // To the address the sender gave, not their account: the reply is the inquiry's, whoever holds the account later.
      { kind: "inquiry_reply", to: inquiry.email, topic: `inquiry:${inquiryId}`, data: { name: inquiry.name, reply: body, inquiry: inquiry.body } },
    ]);
    await trx
      .updateTable("inquiries")
      .set({ status: "answered", handled_by: operator.id, handled_label: operator.label, handled_at: sql<Date>`now()` })
      .where("id", "=", inquiryId)
      .execute();
    await recordOperatorAction(trx, {
      operator,
      kind: "inquiry_replied",
      target: { type: "inquiry", id: String(inquiryId) },
      reason: null,
      details: { replyId: Number(reply.id), to: inquiry.email, statusBefore: inquiry.status },
    });
    return { replyId: Number(reply.id), isNew: true };
  });
}

/**
 * Closes an inquiry (nothing more to do) or reopens it (back into the open queue), naming the operator on the
 * inquiry, with its row in the audit trail (`inquiry_closed`, `inquiry_reopened`) in the same transaction. The same
 * status again changes nothing and writes nothing (`changed` false).
 */
export async function setInquiryStatus({ db, operator, inquiryId, status }: { db: Database; operator: Operator; inquiryId: number; status: "open" | "closed" }) {
  return db.transaction().execute(async (trx) => {
    const inquiry = await lockInquiry(trx, inquiryId);
    if (inquiry.status === status) return { changed: false };
    await admitInquiryDeskPost(trx, operator);
    await trx
      .updateTable("inquiries")
      .set({ status, handled_by: operator.id, handled_label: operator.label, handled_at: sql<Date>`now()` })
      .where("id", "=", inquiryId)
      .execute();
    await recordOperatorAction(trx, {
      operator,
      kind: status === "closed" ? "inquiry_closed" : "inquiry_reopened",
      target: { type: "inquiry", id: String(inquiryId) },
      reason: null,
      details: { statusBefore: inquiry.status },
    });
    return { changed: true };
  });
}
