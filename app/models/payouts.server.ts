import type { Selectable } from "kysely";
import { sql } from "kysely";
import type { Database, PayoutRequestsTable, PayoutStatus } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { PAYOUT_HISTORY_MAX } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { messages } from "~/lib/messages";
import { accountLine, maskAccountNumber, payoutYen } from "~/lib/payouts";
import type { PayoutInput } from "~/lib/validation/payout";
import { debitEarned, returnEarned } from "./coins.server";
import { publishNotifications, recordNotifications, type NotificationInput } from "./notification.server";
import { recordOperatorAction, type Operator } from "./operator-audit.server";

/**
 * Payouts (docs/product.md#data, #coins; ADR 020): a seller asks for earned coins to be transferred to a bank account. The request
 * and the ledger's `debitEarned` are one transaction, so a request exists exactly when its coins left the earned
 * balance; an operator then marks it paid or rejected (`npm run payouts`), and a rejection gives the coins back
 * with `returnEarned`. Both ledger rows carry the reference `payout:{id}`.
 *
 * The account number is stored in full for the operator who transfers the money; everything a seller or the API
 * sees has it masked (`****567`).
 */

export class PayoutError extends DomainError<403 | 404 | 409, "profile_required" | "idempotency_conflict" | "payout_not_found" | "already_decided" | "payout_held"> {}

/** A payout request as pages and the API show it: the account number masked. */
export interface Payout {
  id: string;
  coins: number;
  yenAmount: number;
  bankName: string;
  branchName: string;
  accountType: "ordinary" | "checking";
  accountNumberMasked: string;
  accountHolder: string;
  status: PayoutStatus;
  createdAt: string;
  decidedAt: string | null;
}

/** What the operator needs to transfer the money: the full account number, and who asked. */
export interface PayoutForOperator extends Payout {
  sellerId: string;
  sellerName: string;
  accountNumber: string;
}

type Row = Selectable<PayoutRequestsTable>;

export function toPayout(row: Row): Payout {
  return {
    id: row.id,
    coins: row.coins,
    yenAmount: row.yen_amount,
    bankName: row.bank_name,
    branchName: row.branch_name,
    accountType: row.account_type,
    accountNumberMasked: maskAccountNumber(row.account_number),
    accountHolder: row.account_holder,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
  };
}

const reference = (payoutId: string) => `payout:${payoutId}`;

/** Whether a stored request is what this input asks for (the same key posted again). */
const sameRequest = (row: Row, input: PayoutInput) =>
  row.coins === input.coins &&
  row.bank_name === input.bankName &&
  row.branch_name === input.branchName &&
  row.account_type === input.accountType &&
  row.account_number === input.accountNumber &&
  row.account_holder === input.accountHolder;

/**
 * Requests a payout of earned coins (POST /api/payouts, the transfer page). Insert, on conflict of (seller, key) do
 * nothing, then read: the same key again answers the first request (`isNew` false), with a different body a 409.
 * Fewer earned coins than asked is the ledger's 422 and the transaction writes nothing.
 */
export async function requestPayout({
  db,
  sellerId,
  input,
  idempotencyKey,
}: {
  db: Database;
  sellerId: string;
  input: PayoutInput;
  idempotencyKey: string;
}): Promise<{ payout: Payout; isNew: boolean }> {
  return db.transaction().execute(async (trx) => {
    // Held for share: a suspension (which locks the row for update, then holds requested payouts) sees this one.
    const seller = await trx.selectFrom("users").select("id").where("id", "=", sellerId).forShare().executeTakeFirst();
    if (!seller) throw new PayoutError(403, "profile_required");
    const inserted = await trx
      .insertInto("payout_requests")
      .values({
        seller_id: sellerId,
        coins: input.coins,
        yen_amount: payoutYen(input.coins),
        bank_name: input.bankName,
        branch_name: input.branchName,
        account_type: input.accountType,
        account_number: input.accountNumber,
        account_holder: input.accountHolder,
        idempotency_key: idempotencyKey,
      })
      .onConflict((oc) => oc.columns(["seller_id", "idempotency_key"]).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!inserted) {
      const first = await trx.selectFrom("payout_requests").selectAll().where("seller_id", "=", sellerId).where("idempotency_key", "=", idempotencyKey).executeTakeFirstOrThrow();
      if (!sameRequest(first, input)) throw new PayoutError(409, "idempotency_conflict");
      return { payout: toPayout(first), isNew: false };
    }
    await debitEarned(trx, { userId: sellerId, amount: input.coins, reference: reference(inserted.id) });
    return { payout: toPayout(inserted), isNew: true };
  });
}

/** The seller's requests, newest first (the transfer page's history, GET /api/payouts). */
export async function listPayouts({ db, sellerId, limit = PAYOUT_HISTORY_MAX }: { db: Database; sellerId: string; limit?: number }) {
  const rows = await db.selectFrom("payout_requests").selectAll().where("seller_id", "=", sellerId).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map(toPayout);
}

/** Requests waiting for the operator, oldest first, with the full account number (`npm run payouts -- list` only). */
export async function listRequestedPayouts({ db }: { db: Database }): Promise<PayoutForOperator[]> {
  const rows = await db
    .selectFrom("payout_requests as p")
    .innerJoin("users as u", "u.id", "p.seller_id")
    .selectAll("p")
    .select("u.display_name")
    .where("p.status", "=", "requested")
    .orderBy("p.created_at")
    .orderBy("p.id")
    .execute();
  return rows.map((row) => ({ ...toPayout(row), sellerId: row.seller_id, sellerName: row.display_name, accountNumber: row.account_number }));
}

function decisionNotification(row: Row, decision: "paid" | "rejected"): NotificationInput {
  const payout = toPayout(row);
  return {
    userId: row.seller_id,
    type: "payout",
    title: decision === "paid" ? messages.payouts.paidTitle(row.coins) : messages.payouts.rejectedTitle(row.coins),
    body: decision === "paid" ? messages.payouts.paidBody(row.yen_amount, accountLine(payout)) : messages.payouts.rejectedBody(row.coins),
    link: "/settings/store/transfer",
    mail: "payout_decided",
  };
}

/**
 * The operator's decision on a request, with its row locked: only a requested one changes. The same decision again
 * changes nothing (`changed` false); the other decision is a 409. A rejection returns the coins to the earned
 * balance in the same transaction, and each change leaves its row in the operators' audit trail. Each change
 * notifies the seller: stored in the transaction, announced after it when a realtime server is at hand (the operator
 * command has none; the seller sees it in the list).
 */
export async function decidePayout({
  db,
  realtime,
  operator,
  payoutId,
  decision,
  reason = null,
}: {
  db: Database;
  realtime?: Realtime;
  /** Who decided: a change's row in the operators' audit trail names them. */
  operator: Operator;
  payoutId: string;
  decision: "paid" | "rejected";
  /** Why, when the operator gave a reason (the command takes none). */
  reason?: string | null;
}): Promise<{ payout: Payout; changed: boolean }> {
  const { payout, changed, pending } = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("payout_requests").selectAll().where("id", "=", payoutId).forUpdate().executeTakeFirst();
    if (!row) throw new PayoutError(404, "payout_not_found");
    if (row.status === decision) return { payout: toPayout(row), changed: false, pending: [] };
    // Held while its seller is suspended or banned (ADR 030): `npm run moderation -- restore` makes it requested again.
    if (row.status === "held") throw new PayoutError(409, "payout_held");
    if (row.status !== "requested") throw new PayoutError(409, "already_decided");
    const updated = await trx
      .updateTable("payout_requests")
      .set({ status: decision, decided_at: sql<Date>`now()` })
      .where("id", "=", payoutId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (decision === "rejected") await returnEarned(trx, { userId: row.seller_id, amount: row.coins, reference: reference(row.id) });
    await recordOperatorAction(trx, {
      operator,
      kind: decision === "paid" ? "payout_paid" : "payout_rejected",
      target: { type: "payout", id: row.id },
      reason,
      details: { sellerId: row.seller_id, coins: row.coins, yenAmount: row.yen_amount },
    });
    const pending = await recordNotifications(trx, [decisionNotification(updated, decision)]);
    return { payout: toPayout(updated), changed: true, pending };
  });
  if (realtime) publishNotifications(realtime, pending);
  return { payout, changed };
}
