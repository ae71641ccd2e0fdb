import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditPurchase, transfer } from "~/models/coins.server";
import { listOperatorActions, recordOperatorAction, type Operator } from "~/models/operator-audit.server";
import { hostedAppMetadata } from "~/infra/auth/hosted-admin";
import { embeddedRoleStore, hostedRoleStore, readRoles } from "~/models/operators.server";
import { requestPayout } from "~/models/payouts.server";
import { runModerationCommand } from "../../server/moderation-command";
import { runOperatorsCommand } from "../../server/operators-command";
import { runPayoutsCommand } from "../../server/payouts-command";
import { runTwoStepCommand } from "../../server/two-step-command";
import { createMember, PASSWORD, supabaseFor } from "../support/auth";
import { testEngine } from "../support/database";
import { TEST_OPERATOR } from "../support/operators";
import type { Database } from "../../app/infra/db/tables";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The foundation of the operators' desk (ADR 068) on whichever engine the run uses: roles in the auth user's
 * app_metadata, granted and revoked only through `npm run operators` with a reason; every operator command's action
 * leaves exactly one row in `operator_audit`, in the action's own transaction, and a refused one none; the database
 * refuses to change or delete the trail; the trail's filters and pages.
 */

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.database.db;
const operator: Operator = { id: null, label: `cli:${randomUUID().slice(0, 8)}` };
/** The trail rows the test's operator left about one target. */
const auditOf = (targetId: string, by: Operator = operator) =>
  db().selectFrom("operator_audit").selectAll().where("target_id", "=", targetId).where("operator_label", "=", by.label).orderBy("id").execute();

type CommandIo = { db: Database; operator: Operator; out: (line: string) => void; err: (line: string) => void };
/** Runs a command as the test's operator, with its lines kept. */
async function run(command: (io: CommandIo) => Promise<number>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command({ db: db(), operator, out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}
const operators = (...args: string[]) => run((io) => runOperatorsCommand(args, { ...io, store: embeddedRoleStore, local: true }));
const payouts = (...args: string[]) => run((io) => runPayoutsCommand(args, io));
const moderation = (...args: string[]) => run((io) => runModerationCommand(args, io));

describe(`npm run operators (${testEngine})`, () => {
  it("grants and revokes roles with a reason, read back from app_metadata, each change one audit row; refusals leave none", async () => {
    const member = await createMember(app, "運営者候補");
    const roles = () => readRoles(db(), { store: embeddedRoleStore, userId: member.id });

    const noReason = await operators("grant", member.email, "admin");
    expect(noReason.code).toBe(1);
    expect(noReason.err[0]).toBe('grant には --reason "理由"（1〜1000文字）を指定してください');
    expect((await operators("grant", member.email, "admin", "--reason", "   ")).code).toBe(1);
    expect((await operators("grant", member.email, "owner", "--reason", "x")).err[0]).toBe("役割は moderator、finance、admin のどれかです（owner ではなく）");
    expect((await operators("grant", "not-an-address", "admin", "--reason", "x")).code).toBe(1);
    expect((await operators("revoke", member.email, "admin")).code).toBe(1);
    expect((await operators("grant", `nobody-${randomUUID()}@example.jp`, "admin", "--reason", "x")).err[0]).toMatch(/会員が見つかりません/);
    expect(await roles()).toEqual([]);
    expect(await auditOf(member.id)).toEqual([]);

    const granted = await operators("grant", member.email.toUpperCase(), "admin", "--reason", "最初の管理者");
    expect(granted).toMatchObject({ code: 0, err: [] });
    expect(granted.out[0]).toBe(`運営者候補 (${member.id}): admin を付与しました。現在の役割: admin`);
    expect(await roles()).toEqual(["admin"]);
    const [row] = await auditOf(member.id);
    expect(row).toMatchObject({
      operator_id: null,
      operator_label: operator.label,
      kind: "role_granted",
      target_type: "user",
      target_id: member.id,
      reason: "最初の管理者",
      details: { role: "admin", before: [], after: ["admin"] },
    });
    expect(row!.at).toBeInstanceOf(Date);

    const again = await operators("grant", member.email, "admin", "--reason", "もう一度");
    expect(again.code).toBe(1);
    expect(again.err[0]).toBe(`${member.email}: この役割はすでに付与されています（変更なし）`);
    expect((await operators("grant", member.email, "finance", "--reason", "振込担当も")).code).toBe(0);
    expect(await roles()).toEqual(["finance", "admin"]);
    expect(await auditOf(member.id)).toHaveLength(2);

    // The account's owner sees the roles GoTrue's way (app_metadata, which PUT /user refuses to change), token included.
    const supabase = await supabaseFor(app);
    const { data } = await supabase.auth.signInWithPassword({ email: member.email, password: PASSWORD });
    expect(data.user?.app_metadata).toMatchObject({ roles: ["finance", "admin"], provider: "email" });
    const claims = JSON.parse(Buffer.from(data.session!.access_token.split(".")[1]!, "base64url").toString());
    expect(claims.app_metadata.roles).toEqual(["finance", "admin"]);

    const listed = await operators("list");
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`運営者候補 (${member.id}) ${member.email}  finance, admin`);

    expect((await operators("revoke", member.email, "moderator", "--reason", "x")).err[0]).toBe(`${member.email}: この役割は付与されていません（変更なし）`);
    expect((await operators("revoke", member.email, "admin", "--reason", "担当替え")).code).toBe(0);
    expect(await roles()).toEqual(["finance"]);
    expect((await operators("revoke", member.email, "finance", "--reason", "退職")).out[0]).toBe(`運営者候補 (${member.id}): finance を解除しました。現在の役割: なし`);
    expect(await roles()).toEqual([]);
    const stored = await db().selectFrom("auth_users").select("app_metadata").where("id", "=", member.id).executeTakeFirstOrThrow();
    expect(stored.app_metadata).toEqual({});
    const trail = await auditOf(member.id);
    expect(trail.map((entry) => [entry.kind, entry.reason, entry.details])).toEqual([
      ["role_granted", "最初の管理者", { role: "admin", before: [], after: ["admin"] }],
      ["role_granted", "振込担当も", { role: "finance", before: ["admin"], after: ["finance", "admin"] }],
      ["role_revoked", "担当替え", { role: "admin", before: ["finance", "admin"], after: ["finance"] }],
      ["role_revoked", "退職", { role: "finance", before: ["finance"], after: [] }],
    ]);
    expect((await operators("list")).out.join("\n")).not.toContain(member.id);
  });
});

/**
 * Hosted GoTrue's admin API as far as the roles use it (GET and PUT /auth/v1/admin/users/{id}, the service-role key
 * required, app_metadata merged with null removing a key), refusing writes with a 500 while `refusing` (after the
 * command has read the roles and written its trail row, which must then roll back).
 */
async function goTrueAdminStandIn(serviceRoleKey: string) {
  const users = new Map<string, Record<string, unknown>>();
  const state = { users, refusing: false, url: "", close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const answer = (status: number, json: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(json));
      const id = /^\/auth\/v1\/admin\/users\/([0-9a-f-]{36})$/.exec(req.url ?? "")?.[1];
      if (req.headers.authorization !== `Bearer ${serviceRoleKey}`) return answer(401, { code: 401, msg: "invalid JWT" });
      if (!id || !users.has(id)) return answer(404, { code: 404, error_code: "user_not_found", msg: "User not found" });
      if (state.refusing && req.method === "PUT") return answer(500, { code: 500, msg: "Database error updating user" });
      if (req.method === "PUT") {
        const patch = (JSON.parse(body) as { app_metadata?: Record<string, unknown> }).app_metadata ?? {};
        const merged = { ...users.get(id), ...patch };
        for (const [key, value] of Object.entries(patch)) if (value === null) delete merged[key];
        users.set(id, merged);
      }
      answer(200, { id, aud: "authenticated", app_metadata: users.get(id) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

describe(`npm run operators with hosted Supabase (${testEngine})`, () => {
  it("writes GoTrue's app_metadata through its admin API inside the transaction: a refusal there leaves no trail row", async () => {
    const key = "service-role-key-for-the-operators-test";
    const gotrue = await goTrueAdminStandIn(key);
    try {
      const member = await createMember(app, "ホステッドの運営者");
      gotrue.users.set(member.id, { provider: "email", providers: ["email"] });
      const store = hostedRoleStore(hostedAppMetadata({ SUPABASE_URL: gotrue.url, SUPABASE_SERVICE_ROLE_KEY: key })!);
      const hosted = (...args: string[]) => run((io) => runOperatorsCommand(args, { ...io, store, local: false }));

      expect((await hosted("grant", member.email, "moderator", "--reason", "通報対応")).code).toBe(0);
      expect(gotrue.users.get(member.id)).toEqual({ provider: "email", providers: ["email"], roles: ["moderator"] });
      expect(await readRoles(db(), { store, userId: member.id })).toEqual(["moderator"]);
      // The embedded column is not where hosted roles live.
      expect((await db().selectFrom("auth_users").select("app_metadata").where("id", "=", member.id).executeTakeFirstOrThrow()).app_metadata).toEqual({});
      expect((await hosted("list")).out).toContain(`ホステッドの運営者 (${member.id}) ${member.email}  moderator`);

      gotrue.refusing = true;
      await expect(hosted("revoke", member.email, "moderator", "--reason", "担当替え")).rejects.toThrow();
      expect(gotrue.users.get(member.id)?.roles).toEqual(["moderator"]);
      expect((await auditOf(member.id)).map((row) => row.kind)).toEqual(["role_granted"]);

      gotrue.refusing = false;
      expect((await hosted("revoke", member.email, "moderator", "--reason", "担当替え")).code).toBe(0);
      expect(gotrue.users.get(member.id)).toEqual({ provider: "email", providers: ["email"] });
      expect((await auditOf(member.id)).map((row) => row.kind)).toEqual(["role_granted", "role_revoked"]);
    } finally {
      await gotrue.close();
    }
  });
});

/** Earned coins through the ledger (a tip with no fee), then a payout request of them. */
async function requestedPayout() {
  const [tipper, seller] = await Promise.all([createMember(app, "チップを送る人"), createMember(app, "振込を頼む人")]);
  await db().transaction().execute(async (trx) => {
    await creditPurchase(trx, { userId: tipper.id, coins: 3_000, reference: `test-credit:${randomUUID()}` });
    await transfer(trx, { fromId: tipper.id, toId: seller.id, amount: 3_000, purpose: "tip", reference: `test-tip:${randomUUID()}`, feePercent: 0 });
  });
  const input = { coins: 1_000, bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary" as const, accountNumber: "1234567", accountHolder: "ゲーマー タロウ" };
  return (await requestPayout({ db: db(), sellerId: seller.id, input, idempotencyKey: randomUUID() })).payout.id;
}

describe(`the operator commands' actions in the audit trail (${testEngine})`, () => {
  it("a payout paid or rejected: one row in its transaction; the same decision again, or a refused one, none", async () => {
    const paid = await requestedPayout();
    expect((await payouts("pay", paid)).code).toBe(0);
    expect(await auditOf(paid)).toMatchObject([{ kind: "payout_paid", target_type: "payout", target_id: paid, reason: null, details: { coins: 1_000, yenAmount: expect.any(Number) } }]);
    expect((await payouts("pay", paid)).out[0]).toMatch(/変更なし/);
    expect((await payouts("reject", paid)).code).toBe(1);
    expect(await auditOf(paid)).toHaveLength(1);

    const rejected = await requestedPayout();
    // A trail row the database refuses (an empty label) rolls the decision back with it: one transaction.
    const nobody = { id: null, label: "" };
    await expect(runPayoutsCommand(["reject", rejected], { db: db(), operator: nobody, out: () => {}, err: () => {} })).rejects.toThrow();
    expect((await db().selectFrom("payout_requests").select("status").where("id", "=", rejected).executeTakeFirstOrThrow()).status).toBe("requested");
    expect((await payouts("reject", rejected)).code).toBe(0);
    expect(await auditOf(rejected)).toMatchObject([{ kind: "payout_rejected", target_id: rejected }]);
  });

  it("moderation decisions: a report decided on its target, a sanction on the person; a refused decision none", async () => {
    const [author, reporter] = await Promise.all([createMember(app, "投稿者"), createMember(app, "通報者")]);
    const postId = (await db().insertInto("posts").values({ author_id: author.id, content: "通報される投稿", upload_id: null }).returning("id").executeTakeFirstOrThrow()).id;
    const report = async (targetType: "post" | "user", targetId: string) =>
      (await db().insertInto("reports").values({ reporter_id: reporter.id, target_type: targetType, target_id: targetId, target_user_id: author.id, reason: "spam" }).returning("id").executeTakeFirstOrThrow()).id;
    const postReport = await report("post", postId);
    const userReport = await report("user", author.id);

    expect((await moderation("hide", String(userReport), "--reason", "ユーザーは隠せない")).code).toBe(1);
    expect(await auditOf(author.id)).toEqual([]);
    expect((await moderation("hide", String(postReport), "--reason", "宣伝の投稿")).code).toBe(0);
    const action = await db().selectFrom("moderation_actions").select("id").where("report_id", "=", postReport).executeTakeFirstOrThrow();
    expect(await auditOf(postId)).toMatchObject([
      { kind: "report_decided", target_type: "post", target_id: postId, reason: "宣伝の投稿", details: { action: "hide", moderationActionId: action.id, reportId: postReport, userId: author.id } },
    ]);

    expect((await moderation("suspend", author.id, "--days", "3", "--reason", "繰り返しの宣伝")).code).toBe(0);
    expect((await moderation("restore", author.id, "--reason", "期間の見直し")).code).toBe(0);
    expect((await moderation("restore", author.id, "--reason", "もう一度")).code).toBe(1);
    const sanctions = await auditOf(author.id);
    expect(sanctions.map((row) => [row.kind, row.target_type, row.reason, row.details.action])).toEqual([
      ["sanction", "user", "繰り返しの宣伝", "suspend"],
      ["sanction", "user", "期間の見直し", "restore"],
    ]);
  });

  it("two-step off: one row with the reason; an unknown account none", async () => {
    const member = await createMember(app, "スマホをなくした人");
    const off = (userId: string) => runTwoStepCommand(["off", userId, "--reason", "問い合わせ #12 本人確認済み"], { db: db(), local: true, operator, out: () => {}, err: () => {} });
    expect(await off(member.id)).toBe(0);
    expect(await auditOf(member.id)).toMatchObject([
      { kind: "two_step_off", target_type: "user", reason: "問い合わせ #12 本人確認済み", details: { factorsRemoved: 0, codesRemoved: 0, wasRequired: false, local: true } },
    ]);
    const stranger = randomUUID();
    expect(await off(stranger)).toBe(1);
    expect(await auditOf(stranger)).toEqual([]);
  });
});

describe(`operator_audit (${testEngine})`, () => {
  it("refuses UPDATE, DELETE and TRUNCATE: the database keeps the trail whoever asks", async () => {
    const target = randomUUID();
    const row = await recordOperatorAction(db(), { operator: TEST_OPERATOR, kind: "two_step_off", target: { type: "user", id: target }, reason: "消せない記録" });
    await expect(db().updateTable("operator_audit").set({ reason: "書き換え" }).where("id", "=", row.id).execute()).rejects.toThrow(/operator_audit is append-only/);
    await expect(db().deleteFrom("operator_audit").where("id", "=", row.id).execute()).rejects.toThrow(/operator_audit is append-only/);
    await expect(sql`truncate operator_audit`.execute(db())).rejects.toThrow(/operator_audit is append-only/);
    await expect(
      db().insertInto("operator_audit").values({ operator_label: "cli:x", kind: "deleted_everything" as never, target_type: "user", target_id: target }).execute(),
    ).rejects.toThrow(/check/);
    expect(await db().selectFrom("operator_audit").select("reason").where("id", "=", row.id).executeTakeFirstOrThrow()).toEqual({ reason: "消せない記録" });
  });

  it("reads newest first, by operator, target and kind, a page at a time", async () => {
    const desk: Operator = { id: randomUUID(), label: "desk@example.jp" };
    const [someone, other] = [randomUUID(), randomUUID()];
    const written = [];
    for (const [kind, id] of [["role_granted", someone], ["two_step_off", someone], ["sanction", other], ["role_revoked", someone], ["sanction", someone]] as const) {
      written.push((await recordOperatorAction(db(), { operator: desk, kind, target: { type: "user", id }, reason: `${kind} ${id}` })).id);
    }
    await recordOperatorAction(db(), { operator: TEST_OPERATOR, kind: "sanction", target: { type: "user", id: someone }, reason: "another operator" });
    const ids = (page: { rows: Array<{ id: number }> }) => page.rows.map((row) => row.id);
    const newestFirst = [...written].reverse();

    const first = await listOperatorActions(db(), { operatorId: desk.id!, limit: 2 });
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    const second = await listOperatorActions(db(), { operatorId: desk.id!, limit: 2, before: first.nextBefore! });
    expect(ids(second)).toEqual(newestFirst.slice(2, 4));
    const last = await listOperatorActions(db(), { operatorId: desk.id!, limit: 2, before: second.nextBefore! });
    expect(ids(last)).toEqual(newestFirst.slice(4));
    expect(last.nextBefore).toBeNull();

    expect(ids(await listOperatorActions(db(), { operatorId: desk.id!, target: { type: "user", id: other } }))).toEqual([written[2]]);
    expect(ids(await listOperatorActions(db(), { operatorId: desk.id!, kind: "sanction" }))).toEqual([written[4], written[2]]);
    const aboutSomeone = await listOperatorActions(db(), { target: { type: "user", id: someone }, kind: "sanction" });
    expect(aboutSomeone.rows.map((row) => row.operator_label)).toEqual([TEST_OPERATOR.label, desk.label]);
  });
});
