import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import { PAYOUT_DESK_HISTORY, PAYOUT_DESK_MAX, PAYOUT_DESK_RATE_LIMIT } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { recordOperatorAction, type Operator } from "./operator-audit.server";
import { listRequestedPayouts, toPayout, type Payout, type PayoutForOperator } from "./payouts.server";
import { rateLimitWindowCte } from "./rate-limit.server";

/**
 * The payouts desk (/admin/payouts, ADR 072): what a finance operator reads before transferring money, and the one
 * way the desk shows an account number in full, a reveal that leaves its row in the operators' audit trail. The
 * decisions themselves are `decidePayout`'s, the same as `npm run payouts`'s.
 */

export class PayoutDeskError extends DomainError<404 | 429, "payout_not_found" | "rate_limited"> {}

/** A payout as the desk lists it before a reveal: the account masked, its holder left out. */
export type MaskedPayout = Omit<Payout, "accountHolder">;
const masked = ({ accountHolder: _holder, ...payout }: Payout): MaskedPayout => payout;

/** A requested payout as the desk lists it: masked, with the seller's earned balance and earlier requests. */
export interface DeskPayout extends MaskedPayout {
  sellerId: string;
  sellerName: string;
  /** Earned coins the seller has now (the request's own coins left the balance when it was made). */
  sellerEarned: number;
  /** The seller's newest earlier requests, this one left out. */
  history: MaskedPayout[];
}

/** The bank details of one request, in full: what a reveal answers. */
export interface RevealedBankDetails {
  payoutId: string;
  bankName: string;
  branchName: string;
  accountType: "ordinary" | "checking";
  accountNumber: string;
  accountHolder: string;
}

/** Requested payouts, oldest first (the order they are owed in), at most PAYOUT_DESK_MAX. */
export async function listPayoutDesk({ db }: { db: Database }): Promise<{ payouts: DeskPayout[]; more: boolean }> {
  const rows = await db
    .selectFrom("payout_requests as p")
    .innerJoin("users as u", "u.id", "p.seller_id")
    .leftJoin("coin_wallets as w", "w.user_id", "p.seller_id")
    .selectAll("p")
    .select(["u.display_name", sql<number>`coalesce(w.earned, 0)`.as("earned")])
    .where("p.status", "=", "requested")
    .orderBy("p.created_at")
    .orderBy("p.id")
    .limit(PAYOUT_DESK_MAX + 1)
    .execute();
  const shown = rows.slice(0, PAYOUT_DESK_MAX);
  const sellers = [...new Set(shown.map((row) => row.seller_id))];
  // Each seller's newest requests, enough to leave out the ones listed here and still show PAYOUT_DESK_HISTORY.
  const earlier =
    sellers.length === 0
      ? []
      : await db
          .selectFrom((eb) =>
            eb
              .selectFrom("payout_requests")
              .selectAll()
              .select(sql<number>`row_number() over (partition by seller_id order by created_at desc, id desc)`.as("n"))
              .where("seller_id", "in", sellers)
              .as("ranked"),
          )
          .selectAll()
          .where("n", "<=", PAYOUT_DESK_HISTORY + 1)
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .execute();
  const payouts = shown.map((row) => ({
    ...masked(toPayout(row)),
    sellerId: row.seller_id,
    sellerName: row.display_name,
    sellerEarned: Number(row.earned),
    history: earlier
      .filter((other) => other.seller_id === row.seller_id && other.id !== row.id)
      .slice(0, PAYOUT_DESK_HISTORY)
      .map((other) => masked(toPayout(other))),
  }));
  return { payouts, more: rows.length > PAYOUT_DESK_MAX };
}

/**
 * Counts one of the operator's posts on the payouts desk in `executor` (the caller's transaction, or alone): false once
 * PAYOUT_DESK_RATE_LIMIT is reached, and then nothing is written. Exact under concurrency in one statement (ADR 011).
 */
export async function admitPayoutDeskPost(executor: Database, operator: Operator): Promise<boolean> {
  const counted = await sql<{ bucket: string }>`with admitted as (select 1),
    ${rateLimitWindowCte({ bucket: `desk:payouts:${operator.id ?? operator.label}`, ...PAYOUT_DESK_RATE_LIMIT, from: "admitted" })}
    select bucket from rate_limit_counted`.execute(executor);
  return counted.rows.length > 0;
}

/** Whether a decision on this payout would change it: null when there is no such payout (a 404 that writes nothing). */
export async function payoutAwaitsDecision(db: Database, payoutId: string): Promise<boolean | null> {
  const row = await db.selectFrom("payout_requests").select("status").where("id", "=", payoutId).executeTakeFirst();
  return row ? row.status === "requested" : null;
}

/**
 * One request's bank details in full, for the operator who asked, with the reveal's row in the audit trail (who, when,
 * whose account) and the operator's rate limit counted in the same transaction: the details are answered exactly when
 * the row is written. Nothing is kept for later: the page that asked shows them once.
 */
export async function revealBankDetails({ db, operator, payoutId }: { db: Database; operator: Operator; payoutId: string }): Promise<RevealedBankDetails> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("payout_requests").selectAll().where("id", "=", payoutId).executeTakeFirst();
    if (!row) throw new PayoutDeskError(404, "payout_not_found");
    if (!(await admitPayoutDeskPost(trx, operator))) throw new PayoutDeskError(429, "rate_limited");
    await recordOperatorAction(trx, {
      operator,
      kind: "bank_details_revealed",
      target: { type: "payout", id: row.id },
      reason: null,
      details: { sellerId: row.seller_id, status: row.status },
    });
    return {
      payoutId: row.id,
      bankName: row.bank_name,
      branchName: row.branch_name,
      accountType: row.account_type,
      accountNumber: row.account_number,
      accountHolder: row.account_holder,
    };
  });
}

/**
 * `npm run payouts -- list`: the requested payouts with their account numbers in full, and one reveal per request
 * shown in the audit trail, in one transaction (ADR 072): the shell shows what the desk shows, and the trail answers
 * "who saw this account, when" whichever road they took.
 */
export async function revealRequestedPayouts({ db, operator }: { db: Database; operator: Operator }): Promise<PayoutForOperator[]> {
  return db.transaction().execute(async (trx) => {
    const payouts = await listRequestedPayouts({ db: trx });
    for (const payout of payouts) {
      await recordOperatorAction(trx, {
        operator,
        kind: "bank_details_revealed",
        target: { type: "payout", id: payout.id },
        reason: null,
        details: { sellerId: payout.sellerId, status: payout.status, via: "cli" },
      });
    }
    return payouts;
  });
}
