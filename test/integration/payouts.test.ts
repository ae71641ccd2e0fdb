import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { creditPurchase, ledgerProblems, transfer } from "~/models/coins.server";
import { decidePayout } from "~/models/payouts.server";
import { runPayoutsCommand } from "../../server/payouts-command";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { testEngine } from "../support/database";
import { collect, serverWithSockets, settle } from "../support/sockets";
import { TEST_OPERATOR } from "../support/operators";

/**
 * Payouts through the real server (docs/product.md#data, #coins; ADR 020), on whichever engine the run uses: earned coins only,
 * at least 1,000; the request and its ledger debit in one transaction, idempotent by key; concurrent requests never
 * overdraw; the operator's decision (reject returns the coins, pay does not) notifies the seller; the account
 * number masked everywhere but the operator's list; the page works as plain forms.
 */

const server = serverWithSockets({ seed: false });
const db = () => server.app.database.db;
let tipper: Member;

beforeAll(async () => {
  tipper = await createMember(server.app, "チップを送る人");
});

/** Gives a member exactly `coins` earned coins: a tip through the ledger's verbs, with no fee. */
async function earn(member: { id: string }, coins: number) {
  await db().transaction().execute(async (trx) => {
    await creditPurchase(trx, { userId: tipper.id, coins, reference: `test-credit:${randomUUID()}` });
    await transfer(trx, { fromId: tipper.id, toId: member.id, amount: coins, purpose: "tip", reference: `test-tip:${randomUUID()}`, feePercent: 0 });
  });
}
async function buy(member: { id: string }, coins: number) {
  await db().transaction().execute((trx) => creditPurchase(trx, { userId: member.id, coins, reference: `test-credit:${randomUUID()}` }));
}
async function wallet(member: { id: string }) {
  const row = await db().selectFrom("coin_wallets").select(["purchased", "earned"]).where("user_id", "=", member.id).executeTakeFirst();
  return { purchased: row?.purchased ?? 0, earned: row?.earned ?? 0 };
}
const payoutRows = (member: { id: string }) => db().selectFrom("payout_requests").selectAll().where("seller_id", "=", member.id).orderBy("created_at").execute();
const ledgerOf = (reference: string) => db().selectFrom("coin_transactions").select(["user_id", "kind", "amount"]).where("reference", "=", reference).orderBy("id").execute();
const noLedgerProblems = async () => expect(await ledgerProblems(db())).toEqual([]);

const account = { bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary", accountNumber: "1234567", accountHolder: "ゲーマー タロウ" };
const request = (member: Member, body: Record<string, unknown>, key: string | null = randomUUID()) =>
  member.api("/api/payouts", { json: body, headers: key === null ? {} : { "Idempotency-Key": key } });
/** A page's HTML without the comments React puts between adjacent text parts. */
const textOf = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "");
const errorOf = async (response: Response) => (await response.json()).error as { code: string; message: string; fieldErrors?: Record<string, string[]> };

describe("POST /api/payouts: what is refused", () => {
  it("below 1,000 coins, or a bad field, is a 400 with Japanese field errors and writes nothing", async () => {
    const seller = await createMember(server.app, "少額の人");
    await earn(seller, 5_000);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...account, coins: 999 }, "coins", "1,000コイン以上で申請してください"],
      [{ ...account, coins: 1000.5 }, "coins", "入力内容を確認してください"],
      [{ ...account, coins: "abc" }, "coins", "入力内容を確認してください"],
      [{ ...account, coins: 1_000, accountNumber: "123456" }, "accountNumber", "口座番号は7桁の数字で入力してください"],
      [{ ...account, coins: 1_000, accountNumber: "12345678" }, "accountNumber", "口座番号は7桁の数字で入力してください"],
      [{ ...account, coins: 1_000, accountHolder: "げーまー たろう" }, "accountHolder", "口座名義はカタカナで入力してください"],
      [{ ...account, coins: 1_000, accountType: "savings" }, "accountType", "選択してください"],
      [{ ...account, coins: 1_000, bankName: "" }, "bankName", "入力してください"],
      [{ ...account, coins: 1_000, branchName: "あ".repeat(41) }, "branchName", "40文字以内で入力してください"],
      [{ ...account, coins: 1_000, bankName: "銀\n行" }, "bankName", "使用できない文字が含まれています"],
    ];
    for (const [body, field, message] of cases) {
      const response = await request(seller, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).fieldErrors?.[field], JSON.stringify(body)).toEqual([message]);
    }
    const noKey = await request(seller, { ...account, coins: 1_000 }, null);
    expect(noKey.status).toBe(400);
    expect(await errorOf(noKey)).toMatchObject({ code: "idempotency_key_required" });
    const anonymous = await server.app.request("/api/payouts", { method: "POST", body: JSON.stringify({ ...account, coins: 1_000 }), headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() } });
    expect(anonymous.status).toBe(401);
    expect((await server.app.request("/api/payouts")).status).toBe(401);
    expect(await payoutRows(seller)).toEqual([]);
    expect(await wallet(seller)).toEqual({ purchased: 0, earned: 5_000 });
  });

  it("more than the earned balance is a 422 even when purchased coins would cover it, and nothing is written", async () => {
    const seller = await createMember(server.app, "購入コインが多い人");
    await earn(seller, 1_500);
    await buy(seller, 10_000);
    const response = await request(seller, { ...account, coins: 2_000 });
    expect(response.status).toBe(422);
    expect(await errorOf(response)).toMatchObject({ code: "insufficient_coins", message: "申請できる売上コインが足りません" });
    expect(await payoutRows(seller)).toEqual([]);
    expect(await wallet(seller)).toEqual({ purchased: 10_000, earned: 1_500 });
    const kinds = await db().selectFrom("coin_transactions").select("kind").where("user_id", "=", seller.id).execute();
    expect(kinds.map((row) => row.kind).sort()).toEqual(["purchase", "tip_received"]);
    await noLedgerProblems();
  });
});

describe("POST /api/payouts: a request", () => {
  it("moves the coins out of the earned balance in its transaction, under payout:{id}, and answers the account masked", async () => {
    const seller = await createMember(server.app, "申請する人");
    await earn(seller, 3_000);
    await buy(seller, 5_000);
    // Full-width digits and half-width katakana are read (NFKC) and stored in their usual form.
    const response = await request(seller, { ...account, coins: "1,200", accountNumber: "１２３４５６７", accountHolder: "ｹﾞｰﾏｰ　ﾀﾛｳ" });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain("1234567");
    const { payout } = JSON.parse(text).data;
    expect(payout).toMatchObject({
      coins: 1_200,
      yenAmount: 1_200,
      bankName: "ゲーマー銀行",
      branchName: "渋谷支店",
      accountType: "ordinary",
      accountNumberMasked: "****567",
      accountHolder: "ゲーマー タロウ",
      status: "requested",
      decidedAt: null,
    });
    expect(await wallet(seller)).toEqual({ purchased: 5_000, earned: 1_800 });
    expect(await ledgerOf(`payout:${payout.id}`)).toEqual([{ user_id: seller.id, kind: "payout", amount: -1_200 }]);
    const [stored] = await payoutRows(seller);
    expect(stored).toMatchObject({ account_number: "1234567", account_holder: "ゲーマー タロウ", coins: 1_200, yen_amount: 1_200 });
    await noLedgerProblems();

    const history = await seller.api("/api/payouts");
    expect(history.status).toBe(200);
    const historyText = await history.text();
    expect(historyText).not.toContain("1234567");
    expect(JSON.parse(historyText)).toMatchObject({ success: true, data: { payouts: [{ id: payout.id, accountNumberMasked: "****567", status: "requested" }] } });
  });

  it("the same Idempotency-Key twice is one request (the second answers it with 200); another body with that key is a 409", async () => {
    const seller = await createMember(server.app, "二度押しする人");
    await earn(seller, 3_000);
    const key = randomUUID();
    const [first, second] = await Promise.all([request(seller, { ...account, coins: 1_000 }, key), request(seller, { ...account, coins: 1_000 }, key)]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    const ids = [(await first.json()).data.payout.id, (await second.json()).data.payout.id];
    expect(ids[0]).toBe(ids[1]);
    const again = await request(seller, { ...account, coins: 1_000 }, key);
    expect(again.status).toBe(200);
    const other = await request(seller, { ...account, coins: 1_500 }, key);
    expect(other.status).toBe(409);
    expect(await errorOf(other)).toMatchObject({ code: "idempotency_conflict" });
    expect(await payoutRows(seller)).toHaveLength(1);
    expect(await wallet(seller)).toEqual({ purchased: 0, earned: 2_000 });
    await noLedgerProblems();
  });

  it("20 concurrent requests that together exceed the earned balance: exactly the ones that fit succeed", async () => {
    const seller = await createMember(server.app, "同時に申請する人");
    await earn(seller, 5_000);
    await buy(seller, 20_000);
    const responses = await Promise.all(Array.from({ length: 20 }, () => request(seller, { ...account, coins: 1_000 })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 422)).toHaveLength(15);
    expect(await payoutRows(seller)).toHaveLength(5);
    expect(await wallet(seller)).toEqual({ purchased: 20_000, earned: 0 });
    await noLedgerProblems();
  });
});

describe("the operator's decision", () => {
  async function requested(name: string, coins = 2_000) {
    const seller = await createMember(server.app, name);
    await earn(seller, 5_000);
    const response = await request(seller, { ...account, coins });
    expect(response.status).toBe(201);
    return { seller, payoutId: (await response.json()).data.payout.id as string };
  }
  const notifications = (member: { id: string }) => db().selectFrom("notifications").select(["type", "title", "body", "link"]).where("user_id", "=", member.id).where("type", "=", "payout").execute();

  it("reject returns the coins exactly, once; pay after it is a 409; the seller is notified live and in the list", async () => {
    const { seller, payoutId } = await requested("却下される人");
    expect(await wallet(seller)).toEqual({ purchased: 0, earned: 3_000 });
    const heard = collect(await server.socketOf(seller), "notification:new");
    const rejected = await decidePayout({ db: db(), operator: TEST_OPERATOR, realtime: server.app.server.realtime, payoutId, decision: "rejected" });
    expect(rejected).toMatchObject({ changed: true, payout: { status: "rejected", decidedAt: expect.any(String) } });
    expect(await wallet(seller)).toEqual({ purchased: 0, earned: 5_000 });
    expect(await ledgerOf(`payout:${payoutId}`)).toEqual([
      { user_id: seller.id, kind: "payout", amount: -2_000 },
      { user_id: seller.id, kind: "payout_return", amount: 2_000 },
    ]);
    const repeat = await decidePayout({ db: db(), operator: TEST_OPERATOR, realtime: server.app.server.realtime, payoutId, decision: "rejected" });
    expect(repeat.changed).toBe(false);
    await expect(decidePayout({ db: db(), operator: TEST_OPERATOR, payoutId, decision: "paid" })).rejects.toMatchObject({ status: 409, code: "already_decided" });
    expect(await wallet(seller)).toEqual({ purchased: 0, earned: 5_000 });
    expect(await notifications(seller)).toEqual([
      { type: "payout", title: "2,000コインの振込申請は却下されました", body: expect.stringContaining("売上残高に戻しました"), link: "/settings/store/transfer" },
    ]);
    await settle();
    expect(heard).toEqual([expect.objectContaining({ type: "payout", title: "2,000コインの振込申請は却下されました" })]);
    await noLedgerProblems();
  });

  it("pay keeps the coins out, once; reject after it is a 409; the seller is notified with the masked account", async () => {
    const { seller, payoutId } = await requested("振り込まれる人");
    const paid = await decidePayout({ db: db(), operator: TEST_OPERATOR, payoutId, decision: "paid" });
    expect(paid).toMatchObject({ changed: true, payout: { status: "paid" } });
    expect((await decidePayout({ db: db(), operator: TEST_OPERATOR, payoutId, decision: "paid" })).changed).toBe(false);
    await expect(decidePayout({ db: db(), operator: TEST_OPERATOR, payoutId, decision: "rejected" })).rejects.toMatchObject({ status: 409 });
    await expect(decidePayout({ db: db(), operator: TEST_OPERATOR, payoutId: randomUUID(), decision: "paid" })).rejects.toMatchObject({ status: 404 });
    expect(await wallet(seller)).toEqual({ purchased: 0, earned: 3_000 });
    expect(await ledgerOf(`payout:${payoutId}`)).toEqual([{ user_id: seller.id, kind: "payout", amount: -2_000 }]);
    const [notice] = await notifications(seller);
    expect(notice).toMatchObject({ title: "2,000コインの振込が完了しました", body: "2,000円をゲーマー銀行 渋谷支店 普通 ****567へ振り込みました。" });
    const listed = await seller.api("/api/notifications");
    expect(await listed.text()).not.toContain("1234567");
    await noLedgerProblems();
  });

  it("the operator command lists requests with the full account number, pays and rejects; bad usage exits 1", async () => {
    const { payoutId: toPay } = await requested("コマンドで振り込まれる人", 1_000);
    const { seller, payoutId: toReject } = await requested("コマンドで却下される人", 1_500);
    const run = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runPayoutsCommand(args, { db: db(), out: (line) => out.push(line), err: (line) => err.push(line) });
      return { code, out: out.join("\n"), err: err.join("\n") };
    };
    const list = await run("list");
    expect(list.code).toBe(0);
    expect(list.out).toContain(toPay);
    expect(list.out).toContain("ゲーマー銀行 渋谷支店 普通 1234567 ゲーマー タロウ");
    expect(list.out).toContain("1,500コイン → 1,500円");
    expect(await run("pay", toPay)).toMatchObject({ code: 0, out: expect.stringContaining("振込済みにしました") });
    expect(await run("reject", toReject)).toMatchObject({ code: 0, out: expect.stringContaining("却下にしました") });
    expect(await run("reject", toReject)).toMatchObject({ code: 0, out: expect.stringContaining("変更なし") });
    expect(await run("pay", toReject)).toMatchObject({ code: 1, err: expect.stringContaining("すでに処理されています") });
    expect(await run("pay", "not-a-uuid")).toMatchObject({ code: 1 });
    for (const args of [[], ["pay"], ["list", "x"], ["delete", toPay]]) expect(await run(...args)).toMatchObject({ code: 1, err: expect.stringContaining("使い方") });
    expect((await run("list")).out).not.toContain(toPay);
    expect(await wallet(seller)).toEqual({ purchased: 0, earned: 5_000 });
    await noLedgerProblems();
  });

  it.skipIf(testEngine !== "postgres")("npm run payouts runs against the configured PostgreSQL database as its own process", { timeout: 120_000 }, async () => {
    const { payoutId } = await requested("別プロセスで振り込まれる人", 1_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "payouts-cli-"));
    const env = { ...process.env, DATABASE_URL: server.app.database.url!, DATA_DIR: dataDir, SEED: "none" };
    const cli = (...args: string[]) => promisify(execFile)("npx", ["tsx", "server/payouts-cli.ts", ...args], { env, cwd: process.cwd() });
    const list = await cli("list");
    expect(list.stdout).toContain(payoutId);
    expect(list.stdout).toContain("1234567");
    expect((await cli("pay", payoutId)).stdout).toContain("振込済みにしました");
    await expect(cli("nonsense")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("使い方") });
    const [row] = await db().selectFrom("payout_requests").select("status").where("id", "=", payoutId).execute();
    expect(row!.status).toBe("paid");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe("the transfer page without JavaScript", () => {
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });

  it("form → confirmation → request → history; the back button's re-post requests once; the account masked", async () => {
    const seller = await createBrowserMember(server.app, "フォームの人");
    await earn(seller, 2_500);
    await buy(seller, 700);
    const first = await seller.page("/settings/store/transfer");
    expect(first.status).toBe(302);
    const pageUrl = first.headers.get("Location")!;
    expect(pageUrl).toMatch(/^\/settings\/store\/transfer\?key=[0-9a-f-]{36}$/);
    const page = await seller.page(pageUrl);
    expect(page.status).toBe(200);
    const html = await textOf(page);
    expect(html).toContain("2,500コイン");
    expect(html).toContain("購入したコインは振込申請できません");
    expect(html).toContain("まだ振込申請はありません");
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
    expect(key).toBe(new URL(pageUrl, "http://x").searchParams.get("key"));
    const fields = { ...account, coins: "1000", idempotencyKey: key! };

    // Too much, and a bad field: the form again with the reasons.
    const tooMuch = await seller.page(pageUrl, form({ ...fields, coins: "3000", intent: "confirm" }));
    expect(tooMuch.status).toBe(422);
    expect(await textOf(tooMuch)).toContain("申請できる売上コインが足りません");
    const bad = await seller.page(pageUrl, form({ ...fields, accountNumber: "12", intent: "confirm" }));
    expect(bad.status).toBe(400);
    expect(await textOf(bad)).toContain("口座番号は7桁の数字で入力してください");

    const confirm = await seller.page(pageUrl, form({ ...fields, intent: "confirm" }));
    expect(confirm.status).toBe(200);
    const confirmHtml = await textOf(confirm);
    expect(confirmHtml).toContain("申請内容の確認");
    expect(confirmHtml).toContain("1,000円");
    expect(confirmHtml).toContain("****567");
    expect(confirmHtml).toContain("申請する");
    expect(await payoutRows(seller)).toEqual([]);

    // Back to the form keeps what was entered.
    const edit = await seller.page(pageUrl, form({ ...fields, intent: "edit" }));
    expect(edit.status).toBe(200);
    expect(await textOf(edit)).toContain('value="ゲーマー銀行"');

    const requestIt = () => seller.page(pageUrl, form({ ...fields, intent: "request" }));
    const requested = await requestIt();
    expect(requested.status).toBe(302);
    expect(requested.headers.get("Location")).toBe("/settings/store/transfer");
    // The back button to the confirmation and 「申請する」 again: the same key, the same request.
    expect((await requestIt()).status).toBe(302);
    expect(await payoutRows(seller)).toHaveLength(1);
    expect(await wallet(seller)).toEqual({ purchased: 700, earned: 1_500 });

    const after = await seller.page((await seller.page("/settings/store/transfer")).headers.get("Location")!);
    const afterHtml = await textOf(after);
    expect(afterHtml).toContain("振込を申請しました");
    expect(afterHtml).toContain("申請中");
    expect(afterHtml).toContain("****567");
    expect(afterHtml).not.toContain("1234567");
    expect(afterHtml).toContain("1,500コイン");
    await noLedgerProblems();
  });

  it("is linked from マイページ, and a visitor signed out goes to the login page", async () => {
    const member = await createBrowserMember(server.app, "リンクを探す人");
    expect(await (await member.page("/mypage")).text()).toContain('href="/settings/store/transfer"');
    const anonymous = await server.app.request("/settings/store/transfer");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/login/);
  });
});
