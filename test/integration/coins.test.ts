import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ledgerProblems } from "~/models/coins.server";
import { createMember, type Member } from "../support/auth";
import { collect, serverWithSockets, settle } from "../support/sockets";

const server = serverWithSockets({ seed: false });

const order = (member: Member, packageId: unknown, key: string | null = randomUUID()) =>
  member.api("/api/coins/orders", { json: { packageId }, headers: key === null ? {} : { "Idempotency-Key": key } });
const balanceOf = async (member: Member) => (await (await member.api("/api/coins/balance")).json()) as { totalBalance: number; purchased: number; earned: number };

describe("coin API (test provider)", () => {
  it("answers 401 to anyone signed out on every coin route", async () => {
    const { app } = server;
    for (const path of ["/api/coins/balance", "/api/coins/packages", "/api/coins/history"]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({ success: false, error: { code: "unauthorized", message: "認証が必要です" } });
    }
    const post = await app.request("/api/coins/orders", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ packageId: 1 }),
    });
    expect(post.status).toBe(401);
    expect(await app.database.db.selectFrom("coin_orders").selectAll().execute()).toEqual([]);
  });

  it("lists the seven packages with their discount", async () => {
    const member = await createMember(server.app);
    const body = (await (await member.api("/api/coins/packages")).json()) as { data: { packages: Array<Record<string, unknown>> } };
    expect(body.data.packages.map(({ id, coins, price, discountPercent }) => [id, coins, price, discountPercent])).toEqual([
      [1, 500, 540, 0],
      [2, 1000, 1040, 0],
      [3, 3000, 3040, 0],
      [4, 5000, 5040, 0],
      [5, 10000, 9940, 1],
      [6, 20000, 19840, 1],
      [7, 50000, 48540, 3],
    ]);
    expect(body.data.packages[0]!.name).toBe("500コイン");
  });

  it("pays an order at once, credits its coins, lists it in the history and tells every open tab", async () => {
    const member = await createMember(server.app);
    expect(await balanceOf(member)).toEqual({ success: true, totalBalance: 0, purchased: 0, earned: 0 });
    const tab = await server.socketOf(member);
    const completed = collect<{ orderId: number; coins: number; totalBalance: number }>(tab, "coins:purchase-completed");
    const notifications = collect<{ title: string }>(tab, "notification:new");

    const response = await order(member, 3);
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: { order: { id: number; status: string; coins: number; price: number; provider: string } } };
    expect(data.order).toMatchObject({ status: "paid", coins: 3000, price: 3040, provider: "test" });
    expect(await balanceOf(member)).toMatchObject({ totalBalance: 3000, purchased: 3000, earned: 0 });

    await settle();
    expect(completed).toEqual([{ orderId: data.order.id, coins: 3000, totalBalance: 3000 }]);
    expect(notifications.map((notification) => notification.title)).toEqual(["3,000コインを購入しました"]);

    const history = (await (await member.api("/api/coins/history?limit=5")).json()) as { data: { transactions: Array<Record<string, unknown>>; hasMore: boolean } };
    expect(history.data.transactions).toMatchObject([{ kind: "purchase", amount: 3000, balanceAfter: 3000, reference: `coin_order:${data.order.id}` }]);
    expect(history.data.hasMore).toBe(false);
    expect(await ledgerProblems(server.app.database.db)).toEqual([]);
  });

  it("makes an Idempotency-Key happen once: the same key answers the first order, another package with it is a 409", async () => {
    const member = await createMember(server.app);
    const key = randomUUID();
    const first = await order(member, 1, key);
    expect(first.status).toBe(201);
    const again = await order(member, 1, key);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { order: { id: number } } }).data.order.id).toBe(
      ((await first.json()) as { data: { order: { id: number } } }).data.order.id,
    );
    const conflict = await order(member, 2, key);
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: { code: string } }).error.code).toBe("idempotency_conflict");
    expect((await balanceOf(member)).totalBalance).toBe(500);
    // Keys are the caller's own: another member's same key is another order.
    const other = await createMember(server.app);
    expect((await order(other, 2, key)).status).toBe(201);
    expect((await balanceOf(member)).totalBalance).toBe(500);
  });

  it("turns 20 concurrent orders with one key into one order, credited once", async () => {
    const member = await createMember(server.app);
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 20 }, () => order(member, 2, key)));
    const statuses = responses.map((response) => response.status).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array(19).fill(200), 201]);
    const ids = new Set(await Promise.all(responses.map(async (response) => ((await response.json()) as { data: { order: { id: number } } }).data.order.id)));
    expect(ids.size).toBe(1);
    const orders = await server.app.database.db.selectFrom("coin_orders").select("id").where("user_id", "=", member.id).execute();
    expect(orders).toHaveLength(1);
    expect((await balanceOf(member)).totalBalance).toBe(1000);
    expect(await ledgerProblems(server.app.database.db)).toEqual([]);
  });

  it("refuses a missing key, an unknown package and a malformed body with Japanese errors, writing nothing", async () => {
    const member = await createMember(server.app);
    const missing = await order(member, 1, null);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe("Idempotency-Key ヘッダーが必要です");
    expect((await order(member, 1, "short")).status).toBe(400);
    const unknown = await order(member, 999);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe("コインパッケージが見つかりません");
    for (const packageId of ["abc", -1, 0, 1.5, null, true, [1], { id: 1 }]) {
      expect((await order(member, packageId)).status, JSON.stringify(packageId)).toBe(400);
    }
    expect((await member.api("/api/coins/history?limit=0")).status).toBe(400);
    expect((await member.api("/api/coins/history?offset=-1")).status).toBe(400);
    const orders = await server.app.database.db.selectFrom("coin_orders").select("id").where("user_id", "=", member.id).execute();
    expect(orders).toEqual([]);
    expect((await balanceOf(member)).totalBalance).toBe(0);
  });

  it("shows each member only their own balance and history", async () => {
    const rich = await createMember(server.app);
    const poor = await createMember(server.app);
    await order(rich, 7);
    expect((await balanceOf(poor)).totalBalance).toBe(0);
    const history = (await (await poor.api("/api/coins/history")).json()) as { data: { transactions: unknown[] } };
    expect(history.data.transactions).toEqual([]);
    // The webhook route does not exist without Stripe.
    expect((await server.app.request("/api/webhooks/stripe", { method: "POST", body: "{}" })).status).toBe(404);
  });
});
