import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditPurchase, ledgerProblems, transfer } from "~/models/coins.server";
import type { Operator } from "~/models/operator-audit.server";
import { admitPayoutDeskPost, listPayoutDesk, revealBankDetails } from "~/models/payout-desk.server";
import { decidePayout } from "~/models/payouts.server";
import { runPayoutsCommand } from "../../server/payouts-command";
import { createMember, type Member } from "../support/auth";
import { testEngine } from "../support/database";
import { createOperator, type DeskOperatorMember } from "../support/desk";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The payouts desk (ADR 072) on whichever engine the run uses: requested payouts oldest first, masked, with the
 * seller's earned balance and history; a reveal of the bank details is logged in the audit trail, from the desk and
 * from `npm run payouts -- list`; decisions are `decidePayout`'s, and two at once decide once. Then the page
 * /admin/payouts as a browser without JavaScript uses it: finance and admin only, the reveal a POST answered once and
 * logged, pay and reject with a required reason having the command's effect.
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
    expect(JSON.stringify(payouts)).not.toContain("ゲーマー ハナコ");
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

  it("an operator's reveals and decisions are limited to 60 in 10 minutes: the 61st reveal is a 429 with no row", async () => {
    const { payoutId } = await requested("見られすぎる人");
    const busy: Operator = { id: randomUUID(), label: `busy-${randomUUID().slice(0, 8)}@example.jp` };
    for (let n = 0; n < 59; n++) expect(await admitPayoutDeskPost(db(), busy)).toBe(true);
    await revealBankDetails({ db: db(), operator: busy, payoutId });
    await expect(revealBankDetails({ db: db(), operator: busy, payoutId })).rejects.toMatchObject({ status: 429 });
    expect(await admitPayoutDeskPost(db(), busy)).toBe(false);
    expect((await auditOf(payoutId)).filter((row) => row.operator_label === busy.label)).toHaveLength(1);
    await revealBankDetails({ db: db(), operator, payoutId });
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

describe(`/admin/payouts without JavaScript (${testEngine})`, () => {
  let finance: DeskOperatorMember;
  beforeAll(async () => {
    finance = await createOperator(app, ["finance"], { displayName: "経理さん" });
  });
  const audit = async (payoutId: string) => (await auditOf(payoutId)).map((row) => [row.kind, row.operator_id, row.operator_label, row.reason]);

  it("opens for finance and admin; a moderator and a member get the 404 of an unknown path", async () => {
    const moderator = await createOperator(app, ["moderator"]);
    for (const path of ["/admin/payouts"]) {
      expect((await finance.page(path)).status).toBe(200);
      expect((await moderator.page(path)).status).toBe(404);
      expect((await moderator.post(path, { intent: "reveal", payoutId: randomUUID() })).status).toBe(404);
      const member = await createMember(app, "一般会員");
      expect((await app.request(path, { headers: { Authorization: `Bearer ${member.token}` } })).status).toBe(404);
    }
  });

  it("lists the request masked; 「表示」 answers the details once, uncached, and logs who and when", async () => {
    const { seller, payoutId } = await requested("デスクで見られる人");
    const listed = await finance.page("/admin/payouts");
    const html = (await listed.text()).replace(/<!-- -->/g, "");
    expect(html).toContain("デスクで見られる人");
    expect(html).toContain("ゲーマー銀行 渋谷支店 普通 ****321");
    expect(html).not.toContain("7654321");
    expect(html).not.toContain("ゲーマー ハナコ");
    expect(html).toContain("3,000コイン");

    const revealed = await finance.post("/admin/payouts", { intent: "reveal", payoutId });
    expect(revealed.status).toBe(200);
    expect(revealed.headers.get("cache-control")).toBe("no-store");
    const shown = (await revealed.text()).replace(/<!-- -->/g, "");
    expect(shown).toContain("ゲーマー銀行 渋谷支店 普通 7654321");
    expect(shown).toContain("ゲーマー ハナコ");
    expect(shown).toContain("この表示は監査ログに記録されました");
    expect(await audit(payoutId)).toEqual([["bank_details_revealed", finance.id, `desk:${finance.email}`, null]]);
    // The next page load is masked again.
    expect(await (await finance.page("/admin/payouts")).text()).not.toContain("7654321");
    const [row] = await auditOf(payoutId);
    expect(row!.details).toMatchObject({ sellerId: seller.id });

    expect((await finance.post("/admin/payouts", { intent: "reveal", payoutId: "nope" })).status).toBe(400);
    expect((await finance.post("/admin/payouts", { intent: "reveal", payoutId: randomUUID() })).status).toBe(404);
  });

  it("pay and reject need a reason, then do what npm run payouts does, with a toast; a second post changes nothing", async () => {
    const { seller, payoutId } = await requested("デスクで振り込まれる人", 2_000, 5_000);
    const noReason = await finance.post("/admin/payouts", { intent: "pay", payoutId, reason: "  " });
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("入力してください");
    expect((await finance.post("/admin/payouts", { intent: "pay", payoutId, reason: "あ".repeat(1001) })).status).toBe(400);
    expect((await finance.post("/admin/payouts", { intent: "refund", payoutId, reason: "x" })).status).toBe(400);
    expect(await auditOf(payoutId)).toEqual([]);

    const paid = await finance.post("/admin/payouts", { intent: "pay", payoutId, reason: "11/29 振込番号 0042" });
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).toBe("/admin/payouts");
    expect(paid.headers.get("set-cookie")).toContain("gm_toast=");
    expect(await (await finance.page("/admin/payouts")).text()).toContain("振込済みにしました");
    expect((await db().selectFrom("payout_requests").select("status").where("id", "=", payoutId).executeTakeFirstOrThrow()).status).toBe("paid");
    expect(await audit(payoutId)).toEqual([["payout_paid", finance.id, `desk:${finance.email}`, "11/29 振込番号 0042"]]);
    const notice = await db().selectFrom("notifications").select(["title", "body"]).where("user_id", "=", seller.id).where("type", "=", "payout").executeTakeFirstOrThrow();
    expect(notice).toEqual({ title: "2,000コインの振込が完了しました", body: "2,000円をゲーマー銀行 渋谷支店 普通 ****321へ振り込みました。" });
    const again = await finance.post("/admin/payouts", { intent: "pay", payoutId, reason: "もう一度" });
    expect(again.status).toBe(302);
    expect(await audit(payoutId)).toHaveLength(1);
    const refused = await finance.post("/admin/payouts", { intent: "reject", payoutId, reason: "今さら" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("この振込申請はすでに処理されています");

    const { seller: other, payoutId: toReject } = await requested("デスクで却下される人", 1_000, 1_000);
    expect((await finance.post("/admin/payouts", { intent: "reject", payoutId: toReject, reason: "口座名義が一致しません" })).status).toBe(302);
    const wallet = await db().selectFrom("coin_wallets").select("earned").where("user_id", "=", other.id).executeTakeFirstOrThrow();
    expect(wallet.earned).toBe(1_000);
    expect((await auditOf(toReject)).map((row) => [row.kind, row.reason])).toEqual([["payout_rejected", "口座名義が一致しません"]]);
    expect((await finance.post("/admin/payouts", { intent: "pay", payoutId: randomUUID(), reason: "x" })).status).toBe(404);
    expect(await ledgerProblems(db())).toEqual([]);
  });

  it("the pay button posted twice at once pays once", async () => {
    const { seller, payoutId } = await requested("二度押しされる人");
    const answers = await Promise.all([0, 1].map(() => finance.post("/admin/payouts", { intent: "pay", payoutId, reason: "二度押し" })));
    expect(answers.map((answer) => answer.status)).toEqual([302, 302]);
    expect(await audit(payoutId)).toHaveLength(1);
    expect(await db().selectFrom("notifications").select("id").where("user_id", "=", seller.id).where("type", "=", "payout").execute()).toHaveLength(1);
  });
});
