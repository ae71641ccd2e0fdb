import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditPurchase, ledgerProblems, transfer } from "~/models/coins.server";
import type { Operator } from "~/models/operator-audit.server";
import { listPayoutDesk, revealBankDetails } from "~/models/payout-desk.server";
import { decidePayout } from "~/models/payouts.server";
import { runPayoutsCommand } from "../../server/payouts-command";
import { createMember, type Member } from "../support/auth";
import { testEngine } from "../support/database";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The payouts desk (ADR 072) on whichever engine the run uses: requested payouts oldest first, masked, with the
 * seller's earned balance and history; a reveal of the bank details is logged in the audit trail, from the desk and
 * from `npm run payouts -- list`; decisions are `decidePayout`'s, and two at once decide once.
 */

let app: TestServer;
let tipper: Member;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
  tipper = await createMember(app, "チップを送る人");
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.database.db;
const operator: Operator = { id: randomUUID(), label: `finance-${randomUUID().slice(0, 8)}@example.jp` };
const account = { bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary", accountNumber: "7654321", accountHolder: "ゲーマー ハナコ" };

/** Gives a member `coins` earned coins (a tip through the ledger, no fee). */
async function earn(member: { id: string }, coins: number) {
  await db().transaction().execute(async (trx) => {
    await creditPurchase(trx, { userId: tipper.id, coins, reference: `test-credit:${randomUUID()}` });
    await transfer(trx, { fromId: tipper.id, toId: member.id, amount: coins, purpose: "tip", reference: `test-tip:${randomUUID()}`, feePercent: 0 });
  });
}
/** A seller with `earned` coins who asked for a payout of `coins` of them. */
async function requested(name: string, coins = 2_000, earned = 5_000, seller?: Member) {
  const member = seller ?? (await createMember(app, name));
  if (earned > 0) await earn(member, earned);
  const response = await member.api("/api/payouts", { json: { ...account, coins }, headers: { "Idempotency-Key": randomUUID() } });
  expect(response.status).toBe(201);
  const payoutId = ((await response.json()) as { data: { payout: { id: string } } }).data.payout.id;
  return { seller: member, payoutId };
}
const auditOf = (payoutId: string) => db().selectFrom("operator_audit").selectAll().where("target_type", "=", "payout").where("target_id", "=", payoutId).orderBy("id").execute();

describe(`the payouts desk's model (${testEngine})`, () => {
  it("lists requested payouts oldest first, masked, with the seller's earned balance and earlier requests", async () => {
    const { seller, payoutId: older } = await requested("履歴のある出品者", 1_000, 6_000);
    await decidePayout({ db: db(), operator, payoutId: older, decision: "paid" });
    const { payoutId: first } = await requested("", 1_500, 0, seller);
    const { payoutId: second } = await requested("後から申請した人", 1_000, 1_000);
    const { payouts } = await listPayoutDesk({ db: db() });
    const ids = payouts.map((payout) => payout.id);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect(ids).not.toContain(older);
    const shown = payouts.find((payout) => payout.id === first)!;
    expect(shown).toMatchObject({ sellerId: seller.id, sellerName: "履歴のある出品者", coins: 1_500, accountNumberMasked: "****321", sellerEarned: 3_500, status: "requested" });
    expect(shown.history).toEqual([expect.objectContaining({ id: older, status: "paid", coins: 1_000 })]);
    expect(JSON.stringify(payouts)).not.toContain("7654321");
  });

  it("a reveal answers the full bank details and logs who and when; an unknown payout is a 404 with no row", async () => {
    const { seller, payoutId } = await requested("口座を見られる人");
    const revealed = await revealBankDetails({ db: db(), operator, payoutId });
    expect(revealed).toEqual({ payoutId, ...account });
    const [row, ...rest] = await auditOf(payoutId);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ kind: "bank_details_revealed", operator_id: operator.id, operator_label: operator.label, reason: null, details: { sellerId: seller.id, status: "requested" } });
    expect(row!.at).toBeInstanceOf(Date);
    const unknown = randomUUID();
    await expect(revealBankDetails({ db: db(), operator, payoutId: unknown })).rejects.toMatchObject({ status: 404 });
    expect(await auditOf(unknown)).toEqual([]);
  });

  it("npm run payouts -- list logs a reveal for every request it shows, naming the shell's operator", async () => {
    const { payoutId } = await requested("コマンドで見られる人");
    const out: string[] = [];
    const shell: Operator = { id: null, label: `cli:${randomUUID().slice(0, 8)}` };
    expect(await runPayoutsCommand(["list"], { db: db(), operator: shell, out: (line) => out.push(line), err: () => {} })).toBe(0);
    expect(out.join("\n")).toContain("7654321");
    const rows = await db().selectFrom("operator_audit").selectAll().where("operator_label", "=", shell.label).execute();
    expect(rows.map((row) => row.target_id)).toContain(payoutId);
    expect(rows.every((row) => row.kind === "bank_details_revealed" && (row.details as { via?: string }).via === "cli")).toBe(true);
    expect(rows.length).toBe(Number(/(\d+)件/.exec(out.at(-1)!)![1]));
  });

  it("two pays at once pay once: one audit row, one notification; two rejects return the coins once", async () => {
    const { seller, payoutId } = await requested("同時に振り込まれる人");
    const paid = await Promise.all([0, 1, 2].map(() => decidePayout({ db: db(), operator, payoutId, decision: "paid", reason: "振込番号 123" })));
    expect(paid.filter((result) => result.changed)).toHaveLength(1);
    expect((await auditOf(payoutId)).map((row) => [row.kind, row.reason])).toEqual([["payout_paid", "振込番号 123"]]);
    expect(await db().selectFrom("notifications").select("id").where("user_id", "=", seller.id).where("type", "=", "payout").execute()).toHaveLength(1);

    const { seller: other, payoutId: toReject } = await requested("同時に却下される人", 2_000, 2_000);
    const rejected = await Promise.all([0, 1].map(() => decidePayout({ db: db(), operator, payoutId: toReject, decision: "rejected", reason: "口座名義が違います" })));
    expect(rejected.filter((result) => result.changed)).toHaveLength(1);
    const wallet = await db().selectFrom("coin_wallets").select("earned").where("user_id", "=", other.id).executeTakeFirstOrThrow();
    expect(wallet.earned).toBe(2_000);
    expect(await ledgerProblems(db())).toEqual([]);
  });
});
