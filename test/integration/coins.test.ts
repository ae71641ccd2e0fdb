import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { ledgerProblems } from "~/models/coins.server";
import { createBrowserMember, createMember, type Member } from "../support/auth";
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

describe("coin pages without JavaScript", () => {
  const post = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const hiddenKey = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];

  it("checkout → pay → result page with the new balance → history lists the purchase; the same form twice charges once", async () => {
    const member = await createBrowserMember(server.app, "購入テスト");
    const packages = await member.page("/coins");
    expect(packages.status).toBe(200);
    expect(await packages.text()).toContain('href="/coins/checkout/3"');

    // The first visit is given its idempotency key in the URL, so the page renders the same form however often
    // the browser loads it again.
    const first = await member.page("/coins/checkout/3");
    expect(first.status).toBe(302);
    const checkoutPath = first.headers.get("location")!;
    expect(checkoutPath).toMatch(/^\/coins\/checkout\/3\?key=[0-9a-f-]{36}$/);
    const checkout = await member.page(checkoutPath);
    expect(checkout.status).toBe(200);
    const html = await checkout.text();
    for (const text of ["購入内容の確認", "3,000コイン", "¥3,040", "税込", "テスト決済", "返金・換金・払い戻しはできません", 'href="/transaction-act"']) {
      expect(html).toContain(text);
    }
    const key = hiddenKey(html)!;
    expect(checkoutPath).toBe(`/coins/checkout/3?key=${key}`);
    expect(html).toContain(`action="${checkoutPath}"`);

    const paid = await member.page(checkoutPath, post({ idempotencyKey: key }));
    expect(paid.status).toBe(302);
    const resultPath = paid.headers.get("location")!;
    expect(resultPath).toMatch(/^\/coins\/orders\/\d+$/);
    // The same form posted again (a double click, the back button, which may load the page again): the same
    // order, nothing charged twice.
    expect(hiddenKey(await (await member.page(checkoutPath)).text())).toBe(key);
    const again = await member.page(checkoutPath, post({ idempotencyKey: key }));
    expect(again.headers.get("location")).toBe(resultPath);

    const result = await (await member.page(resultPath)).text();
    expect(result).toContain("購入が完了しました");
    expect(result).toMatch(/data-testid="result-balance"[^>]*>3,000</);
    const history = await (await member.page("/settings/coin-history")).text();
    expect(history).toContain("購入");
    expect(history).toContain("+<!-- -->3,000");
    expect((await balanceOf(member)).totalBalance).toBe(3000);
    // Someone else's order page is not found.
    const stranger = await createBrowserMember(server.app);
    expect((await stranger.page(resultPath)).status).toBe(404);
  });

  it("asks a signed-out visitor to sign in first, and comes back", async () => {
    const response = await server.app.request("/coins/checkout/1");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fcoins%2Fcheckout%2F1");
  });

  it("answers an unknown or malformed package with the fatal 404 of docs/product.md#errors", async () => {
    const member = await createBrowserMember(server.app);
    for (const path of ["/coins/checkout/999", "/coins/checkout/abc", "/coins/checkout/0", "/coins/orders/abc"]) {
      const response = await member.page(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain(`Page Not Found: ${path}`);
    }
  });

  it("shows a balance that cannot be read as zero, not an error page (docs/product.md#errors)", async () => {
    const member = await createBrowserMember(server.app);
    await order(member, 1);
    const { db } = server.app.database;
    await sql`alter table coin_wallets rename to coin_wallets_unavailable`.execute(db);
    try {
      for (const path of ["/", "/coins", `/coins/checkout/2?key=${randomUUID()}`]) {
        const response = await member.page(path);
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toMatch(/data-testid="coin-balance"[^>]*>0</);
      }
    } finally {
      await sql`alter table coin_wallets_unavailable rename to coin_wallets`.execute(db);
    }
    expect(await (await member.page("/")).text()).toMatch(/data-testid="coin-balance"[^>]*>500</);
  });

  it("shows an empty history as such, and refuses a form without its key", async () => {
    const member = await createBrowserMember(server.app);
    expect(await (await member.page("/settings/coin-history")).text()).toContain("コインの取引はまだありません");
    const refused = await member.page(`/coins/checkout/1?key=${randomUUID()}`, post({}));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("処理に失敗しました");
    expect((await balanceOf(member)).totalBalance).toBe(0);
  });
});
