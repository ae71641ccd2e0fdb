import { sql, type Transaction } from "kysely";
import type { DB, Database } from "~/infra/db/tables";
import { DomainError } from "~/lib/domain-error";

/**
 * The ledger: the only code that changes a coin balance (docs/product.md#data, #coins; docs/architecture.md "Money and deadlines").
 *
 * A wallet has purchased and earned coins. Each verb below takes the caller's transaction, locks the wallets it
 * touches with one `SELECT … FOR UPDATE` (lower user id first, so two transfers never deadlock), checks the balance
 * in code while holding the lock, then changes every wallet it touches and writes their log rows in one more
 * statement, and refuses what would go below zero. Bookings, reviews, subscriptions, payouts and leaving (退会)
 * compose these verbs inside their own transaction; nothing else writes coin_wallets or coin_transactions.
 */

type Trx = Transaction<DB>;

/** What a log row records (its label in Japanese is in ~/components/coin-labels). Payer and payee sides are separate kinds. */
export type CoinTransactionKind =
  | "purchase"
  | "booking"
  | "refund"
  | "sale"
  | "tip_sent"
  | "tip_received"
  | "subscription"
  | "subscription_income"
  | "payout"
  | "payout_return"
  | "forfeit";

/** A ledger rule was broken; routes answer its status with its Japanese message. */
export class CoinError extends DomainError<404 | 409 | 422, "insufficient_coins" | "escrow_not_found" | "escrow_settled" | "invalid_amount"> {}

export interface Wallet {
  purchased: number;
  earned: number;
}

export interface Balance extends Wallet {
  totalBalance: number;
}

function assertAmount(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new CoinError(422, "invalid_amount");
}

/** The platform's share of a credit to a seller: rounded down, so the seller never gets less than their share. */
export function platformFee(amount: number, feePercent: number) {
  return Math.floor((amount * feePercent) / 100);
}

/**
 * Locks the wallets of these users for the rest of the transaction, in user id order, creating the missing ones
 * (empty). Answers them by user id.
 */
async function lockWallets(trx: Trx, userIds: string[]): Promise<Map<string, Wallet>> {
  const ids = [...new Set(userIds)].sort();
  const select = () =>
    trx.selectFrom("coin_wallets").select(["user_id", "purchased", "earned"]).where("user_id", "in", ids).orderBy("user_id").forUpdate().execute();
  let rows = await select();
  if (rows.length < ids.length) {
    await trx
      .insertInto("coin_wallets")
      .values(ids.map((user_id) => ({ user_id })))
      .onConflict((oc) => oc.column("user_id").doNothing())
      .execute();
    rows = await select();
  }
  return new Map(rows.map((row) => [row.user_id, { purchased: row.purchased, earned: row.earned }]));
}

interface Change {
  userId: string;
  purchased?: number;
  earned?: number;
  kind: CoinTransactionKind;
  fee?: number;
}

/**
 * Changes locked wallets and writes their log rows, in one statement for all of them (`UPDATE … FROM (VALUES …)
 * RETURNING` feeding `INSERT … SELECT`): one round trip per verb, however many wallets it changes.
 */
async function change(trx: Trx, reference: string, changes: Change[]) {
  if (new Set(changes.map((change) => change.userId)).size !== changes.length) throw new Error("one change per wallet");
  const rows = changes.map(
    ({ userId, purchased = 0, earned = 0, kind, fee = 0 }) =>
      sql`(${userId}::uuid, ${purchased}::integer, ${earned}::integer, ${kind}::text, ${fee}::integer)`,
  );
  await sql`
    with d (user_id, purchased, earned, kind, fee) as (values ${sql.join(rows)}),
    w as (
      update coin_wallets w
      set purchased = w.purchased + d.purchased, earned = w.earned + d.earned, updated_at = now()
      from d where w.user_id = d.user_id
      returning w.user_id, w.purchased, w.earned, d.kind, d.purchased + d.earned as amount, d.fee
    )
    insert into coin_transactions (user_id, kind, amount, purchased_after, earned_after, fee, reference)
    select user_id, kind, amount, purchased, earned, fee, ${reference}::text from w
  `.execute(trx);
}

/** Takes `amount` from a locked wallet, purchased coins first; insufficient coins is a 422. */
function split(wallet: Wallet, amount: number) {
  if (wallet.purchased + wallet.earned < amount) throw new CoinError(422, "insufficient_coins");
  const purchased = Math.min(wallet.purchased, amount);
  return { purchased, earned: amount - purchased };
}

/** A paid coin order: the coins go to the buyer's purchased balance. */
export async function creditPurchase(trx: Trx, { userId, coins, reference }: { userId: string; coins: number; reference: string }) {
  assertAmount(coins);
  await lockWallets(trx, [userId]);
  await change(trx, reference, [{ userId, purchased: coins, kind: "purchase" }]);
}

/**
 * Takes coins from the payer into escrow for `reference` (a booking). Holding again for the same reference (an
 * extension) adds to it while it is held.
 */
export async function holdInEscrow(
  trx: Trx,
  { payerId, payeeId, amount, reference }: { payerId: string; payeeId: string; amount: number; reference: string },
) {
  assertAmount(amount);
  const wallet = (await lockWallets(trx, [payerId])).get(payerId)!;
  const taken = split(wallet, amount);
  await change(trx, reference, [{ userId: payerId, purchased: -taken.purchased, earned: -taken.earned, kind: "booking" }]);
  const escrow = await trx
    .insertInto("coin_escrows")
    .values({ reference, payer_id: payerId, payee_id: payeeId, purchased: taken.purchased, earned: taken.earned })
    .onConflict((oc) =>
      oc.column("reference").doUpdateSet((eb) => ({
        purchased: eb("coin_escrows.purchased", "+", eb.ref("excluded.purchased")),
        earned: eb("coin_escrows.earned", "+", eb.ref("excluded.earned")),
      })).where((eb) => eb.and([eb("coin_escrows.status", "=", "held"), eb("coin_escrows.payer_id", "=", payerId)])),
    )
    .returning("reference")
    .executeTakeFirst();
  if (!escrow) throw new CoinError(409, "escrow_settled");
}

/** Settles a held escrow: locks it, then the wallets. */
async function settleEscrow(trx: Trx, reference: string, status: "released" | "refunded") {
  const escrow = await trx
    .updateTable("coin_escrows")
    .set({ status, settled_at: sql<Date>`now()` })
    .where("reference", "=", reference)
    .where("status", "=", "held")
    .returning(["payer_id", "payee_id", "purchased", "earned"])
    .executeTakeFirst();
  if (escrow) return escrow;
  const exists = await trx.selectFrom("coin_escrows").select("status").where("reference", "=", reference).executeTakeFirst();
  throw exists ? new CoinError(409, "escrow_settled") : new CoinError(404, "escrow_not_found");
}

/** Gives the held coins back to the payer, into the balances they came from. */
export async function refundEscrow(trx: Trx, { reference }: { reference: string }) {
  const escrow = await settleEscrow(trx, reference, "refunded");
  if (escrow.purchased + escrow.earned === 0) return;
  await lockWallets(trx, [escrow.payer_id]);
  await change(trx, reference, [{ userId: escrow.payer_id, purchased: escrow.purchased, earned: escrow.earned, kind: "refund" }]);
}

/** Pays the held coins to the payee's earned balance, less the platform fee. Answers what the payee got. */
export async function releaseEscrow(trx: Trx, { reference, feePercent }: { reference: string; feePercent: number }) {
  const escrow = await settleEscrow(trx, reference, "released");
  const amount = escrow.purchased + escrow.earned;
  const fee = platformFee(amount, feePercent);
  if (amount - fee > 0) {
    await lockWallets(trx, [escrow.payee_id]);
    await change(trx, reference, [{ userId: escrow.payee_id, earned: amount - fee, fee, kind: "sale" }]);
  }
  return { amount, fee, credited: amount - fee };
}

/**
 * Coins from one user to another (a tip, a subscription): taken from the payer (purchased first) and credited to
 * the payee's earned balance less the platform fee.
 */
export async function transfer(
  trx: Trx,
  {
    fromId,
    toId,
    amount,
    purpose,
    reference,
    feePercent,
  }: { fromId: string; toId: string; amount: number; purpose: "tip" | "subscription"; reference: string; feePercent: number },
) {
  assertAmount(amount);
  if (fromId === toId) throw new CoinError(422, "invalid_amount");
  const wallets = await lockWallets(trx, [fromId, toId]);
  const taken = split(wallets.get(fromId)!, amount);
  const fee = platformFee(amount, feePercent);
  const [sent, received] = purpose === "tip" ? (["tip_sent", "tip_received"] as const) : (["subscription", "subscription_income"] as const);
  await change(trx, reference, [
    { userId: fromId, purchased: -taken.purchased, earned: -taken.earned, kind: sent },
    ...(amount - fee > 0 ? [{ userId: toId, earned: amount - fee, fee, kind: received }] : []),
  ]);
  return { amount, fee, credited: amount - fee };
}

/** Takes earned coins only (a payout request); insufficient earned coins is a 422. */
export async function debitEarned(trx: Trx, { userId, amount, reference }: { userId: string; amount: number; reference: string }) {
  assertAmount(amount);
  const wallet = (await lockWallets(trx, [userId])).get(userId)!;
  if (wallet.earned < amount) throw new CoinError(422, "insufficient_coins");
  await change(trx, reference, [{ userId, earned: -amount, kind: "payout" }]);
}

/** Gives earned coins back (a payout that was rejected). */
export async function returnEarned(trx: Trx, { userId, amount, reference }: { userId: string; amount: number; reference: string }) {
  assertAmount(amount);
  await lockWallets(trx, [userId]);
  await change(trx, reference, [{ userId, earned: amount, kind: "payout_return" }]);
}

/**
 * Locks the user's wallet for the rest of the transaction and answers its balances, changing nothing: leaving (退会)
 * holds it while it checks what is still open, so no booking, payout or transfer of theirs can start meanwhile.
 */
export async function lockWallet(trx: Trx, userId: string): Promise<Wallet> {
  return (await lockWallets(trx, [userId])).get(userId)!;
}

/**
 * Takes every coin the user has, purchased and earned, out of circulation (an account that leaves, ADR 028: the
 * Payment Services Act allows no refund except when the service ends). One `forfeit` log row; answers the coins taken
 * (0 writes nothing).
 */
export async function forfeitBalance(trx: Trx, { userId, reference }: { userId: string; reference: string }) {
  const wallet = (await lockWallets(trx, [userId])).get(userId)!;
  const amount = wallet.purchased + wallet.earned;
  if (amount === 0) return 0;
  await change(trx, reference, [{ userId, purchased: -wallet.purchased, earned: -wallet.earned, kind: "forfeit" }]);
  return amount;
}

/** A user's balances; a user without a wallet has none. */
export async function getBalance(db: Database, userId: string): Promise<Balance> {
  const wallet = await db.selectFrom("coin_wallets").select(["purchased", "earned"]).where("user_id", "=", userId).executeTakeFirst();
  const purchased = wallet?.purchased ?? 0;
  const earned = wallet?.earned ?? 0;
  return { purchased, earned, totalBalance: purchased + earned };
}

export interface CoinTransaction {
  id: number;
  kind: CoinTransactionKind;
  amount: number;
  balanceAfter: number;
  reference: string;
  createdAt: string;
}

/** A page of the user's coin history, newest first. */
export async function listTransactions(db: Database, { userId, limit, offset }: { userId: string; limit: number; offset: number }) {
  const rows = await db
    .selectFrom("coin_transactions")
    .select(["id", "kind", "amount", "purchased_after", "earned_after", "reference", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(limit + 1)
    .offset(offset)
    .execute();
  const transactions: CoinTransaction[] = rows.slice(0, limit).map((row) => ({
    id: row.id,
    kind: row.kind as CoinTransactionKind,
    amount: row.amount,
    balanceAfter: row.purchased_after + row.earned_after,
    reference: row.reference,
    createdAt: row.created_at.toISOString(),
  }));
  return { transactions, hasMore: rows.length > limit };
}

/**
 * The ledger's invariant, as problems found (none when it holds). Tests run it after every money scenario and
 * the benchmark after its run.
 * - Every wallet equals the sum of its log, and its newest log row's balances are its balances.
 * - Nothing is created or lost: coins bought, less coins paid out and coins forfeited by accounts that left, equal
 *   the balances plus the coins held in escrow plus the fees the platform kept.
 */
export async function ledgerProblems(db: Database): Promise<string[]> {
  const problems: string[] = [];
  const wallets = await db
    .selectFrom("coin_wallets as w")
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("coin_transactions")
          .select(["user_id", (e) => e.fn.sum<number>("amount").as("total"), (e) => e.fn.max<number>("id").as("last_id")])
          .groupBy("user_id")
          .as("log"),
      (join) => join.onRef("log.user_id", "=", "w.user_id"),
    )
    .leftJoin("coin_transactions as last", "last.id", "log.last_id")
    .select(["w.user_id", "w.purchased", "w.earned", "log.total", "last.purchased_after", "last.earned_after"])
    .execute();
  for (const wallet of wallets) {
    const total = wallet.purchased + wallet.earned;
    if (Number(wallet.total ?? 0) !== total) problems.push(`wallet ${wallet.user_id}: balance ${total} but its log sums to ${wallet.total ?? 0}`);
    if (wallet.purchased_after !== null && (wallet.purchased_after !== wallet.purchased || wallet.earned_after !== wallet.earned)) {
      problems.push(`wallet ${wallet.user_id}: balances ${wallet.purchased}/${wallet.earned} but its newest log row says ${wallet.purchased_after}/${wallet.earned_after}`);
    }
    if (wallet.purchased < 0 || wallet.earned < 0) problems.push(`wallet ${wallet.user_id}: negative balance`);
  }
  const { rows } = await sql<{ bought: number; paid_out: number; forfeited: number; balances: number; held: number; fees: number }>`
    select
      (select coalesce(sum(amount), 0) from coin_transactions where kind = 'purchase') as bought,
      (select coalesce(sum(amount), 0) from coin_transactions where kind in ('payout', 'payout_return')) as paid_out,
      (select coalesce(sum(amount), 0) from coin_transactions where kind = 'forfeit') as forfeited,
      (select coalesce(sum(purchased + earned), 0) from coin_wallets) as balances,
      (select coalesce(sum(purchased + earned), 0) from coin_escrows where status = 'held') as held,
      (select coalesce(sum(fee), 0) from coin_transactions) as fees
  `.execute(db);
  const totals = Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)])) as (typeof rows)[0];
  if (totals.bought + totals.paid_out + totals.forfeited !== totals.balances + totals.held + totals.fees) {
    problems.push(
      `coins bought ${totals.bought} + paid out ${totals.paid_out} + forfeited ${totals.forfeited} ≠ balances ${totals.balances} + escrow ${totals.held} + fees ${totals.fees}`,
    );
  }
  return problems;
}
