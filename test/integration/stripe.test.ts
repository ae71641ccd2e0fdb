import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "~/models/coins.server";
import { createMember, type Member } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

/**
 * The real `stripe` client, pointed at a local HTTP server that answers the Checkout Session API the way Stripe
 * does; events are signed with the client's own test header helper.
 */
const WEBHOOK_SECRET = `whsec_${randomUUID().replaceAll("-", "")}`;
const stripe = new Stripe("sk_test_local");

interface StripeRequest {
  path: string;
  idempotencyKey: string | undefined;
  form: URLSearchParams;
}
const stripeRequests: StripeRequest[] = [];
let failNextSession = false;
const sessions = new Map<string, string>();
const stripeApi = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
    stripeRequests.push({ path: req.url ?? "", idempotencyKey, form: new URLSearchParams(body) });
    res.setHeader("Content-Type", "application/json");
    if (req.method !== "POST" || req.url !== "/v1/checkout/sessions" || req.headers.authorization !== "Bearer sk_test_local") {
      res.statusCode = 404;
      return res.end(JSON.stringify({ error: { type: "invalid_request_error", message: "Unrecognized request URL" } }));
    }
    if (failNextSession) {
      failNextSession = false;
      res.statusCode = 400;
      return res.end(JSON.stringify({ error: { type: "invalid_request_error", message: "Amount too small" } }));
    }
    // As Stripe: the same idempotency key answers the same session.
    const id = sessions.get(idempotencyKey ?? "") ?? `cs_test_${randomUUID().replaceAll("-", "")}`;
    if (idempotencyKey) sessions.set(idempotencyKey, id);
    const form = new URLSearchParams(body);
    res.end(
      JSON.stringify({
        id,
        object: "checkout.session",
        mode: "payment",
        currency: "jpy",
        amount_total: Number(form.get("line_items[0][price_data][unit_amount]")),
        metadata: { orderId: form.get("metadata[orderId]"), userId: form.get("metadata[userId]") },
        payment_status: "unpaid",
        status: "open",
        url: `https://checkout.stripe.com/c/pay/${id}`,
      }),
    );
  });
});

let app: TestServer;
beforeAll(async () => {
  await new Promise<void>((resolve) => stripeApi.listen(0, "127.0.0.1", resolve));
  const { port } = stripeApi.address() as AddressInfo;
  app = await startTestServer({
    seed: false,
    env: { STRIPE_SECRET_KEY: "sk_test_local", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: `http://127.0.0.1:${port}` },
  });
});
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => stripeApi.close(resolve));
});

interface Order {
  id: number;
  status: string;
  checkoutUrl: string | null;
  provider: string;
}
async function placeOrder(member: Member, packageId: number, key = randomUUID()) {
  const response = await member.api("/api/coins/orders", { json: { packageId }, headers: { "Idempotency-Key": key } });
  return { status: response.status, body: (await response.json()) as { data: { order: Order }; error?: { message: string } } };
}

function sessionEvent(type: string, order: Order, { id = `evt_${randomUUID().replaceAll("-", "")}`, paymentStatus = "paid" } = {}) {
  const sessionId = new URL(order.checkoutUrl ?? "https://x/c/pay/cs_unknown").pathname.split("/").pop();
  return JSON.stringify({
    id,
    object: "event",
    type,
    api_version: "2025-01-01",
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: sessionId, object: "checkout.session", payment_status: paymentStatus, metadata: { orderId: String(order.id) } } },
  });
}

const deliver = (payload: string, signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })) =>
  app.request("/api/webhooks/stripe", { method: "POST", headers: { "Content-Type": "application/json", "Stripe-Signature": signature }, body: payload });

const balanceOf = async (member: Member) => ((await (await member.api("/api/coins/balance")).json()) as { totalBalance: number }).totalBalance;

describe("coins with Stripe Checkout", () => {
  it("opens a Checkout Session in yen for the package, with the order in its metadata, once per order", async () => {
    const member = await createMember(app);
    const key = randomUUID();
    const { status, body } = await placeOrder(member, 5, key);
    expect(status).toBe(201);
    expect(body.data.order).toMatchObject({ status: "pending", provider: "stripe" });
    expect(body.data.order.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const request = stripeRequests.at(-1)!;
    expect(request.path).toBe("/v1/checkout/sessions");
    expect(request.idempotencyKey).toBe(`gamermatch-coin-order-${body.data.order.id}`);
    expect(Object.fromEntries(request.form)).toMatchObject({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "jpy",
      "line_items[0][price_data][unit_amount]": "9940",
      "line_items[0][price_data][product_data][name]": "10,000コイン",
      "metadata[orderId]": String(body.data.order.id),
      success_url: `${app.url}/coins/orders/${body.data.order.id}`,
      cancel_url: `${app.url}/coins/checkout/5`,
    });
    // The same key again: the same order and session, no new session asked for.
    const requestsBefore = stripeRequests.length;
    const again = await placeOrder(member, 5, key);
    expect(again.status).toBe(200);
    expect(again.body.data.order).toEqual(body.data.order);
    expect(stripeRequests.length).toBe(requestsBefore);
    // Nothing is credited before Stripe says the session was paid.
    expect(await balanceOf(member)).toBe(0);
  });

  it("credits coins once when the same signed event arrives five times at once", async () => {
    const member = await createMember(app);
    const { body } = await placeOrder(member, 2);
    const payload = sessionEvent("checkout.session.completed", body.data.order);
    const responses = await Promise.all(Array.from({ length: 5 }, () => deliver(payload)));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const outcomes = (await Promise.all(responses.map(async (response) => ((await response.json()) as { outcome: string }).outcome))).sort();
    expect(outcomes).toEqual(["duplicate", "duplicate", "duplicate", "duplicate", "paid"]);
    expect(await balanceOf(member)).toBe(1000);
    // Another event about the same paid session (Stripe may send both completed and async_payment_succeeded).
    const other = await deliver(sessionEvent("checkout.session.async_payment_succeeded", body.data.order));
    expect(((await other.json()) as { outcome: string }).outcome).toBe("ignored");
    expect(await balanceOf(member)).toBe(1000);
    const order = await member.api(`/api/coins/history`);
    expect(((await order.json()) as { data: { transactions: unknown[] } }).data.transactions).toHaveLength(1);
    expect(await ledgerProblems(app.database.db)).toEqual([]);
  });

  it("refuses an event with a bad signature (400) and credits nothing", async () => {
    const member = await createMember(app);
    const { body } = await placeOrder(member, 1);
    const payload = sessionEvent("checkout.session.completed", body.data.order);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_not_the_right_one" });
    expect((await deliver(payload, forged)).status).toBe(400);
    expect((await deliver(payload, "t=1,v1=deadbeef")).status).toBe(400);
    const tampered = payload.replace('"payment_status":"paid"', '"payment_status":"paid" ');
    expect((await deliver(tampered, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))).status).toBe(400);
    expect(
      (await app.request("/api/webhooks/stripe", { method: "POST", headers: { "Content-Type": "application/json" }, body: payload })).status,
    ).toBe(400);
    expect(await balanceOf(member)).toBe(0);
    expect(await app.database.db.selectFrom("payment_events").select("id").where("id", "=", JSON.parse(payload).id).execute()).toEqual([]);
  });

  it("does not credit a completed session whose payment is still pending, nor someone else's session", async () => {
    const member = await createMember(app);
    const { body } = await placeOrder(member, 1);
    const unpaid = await deliver(sessionEvent("checkout.session.completed", body.data.order, { paymentStatus: "unpaid" }));
    expect(((await unpaid.json()) as { outcome: string }).outcome).toBe("ignored");
    const other = await createMember(app);
    const { body: otherBody } = await placeOrder(other, 1);
    // An event naming this order but another order's session.
    const mixed = JSON.parse(sessionEvent("checkout.session.completed", otherBody.data.order));
    mixed.data.object.metadata.orderId = String(body.data.order.id);
    const response = await deliver(JSON.stringify(mixed));
    expect(((await response.json()) as { outcome: string }).outcome).toBe("ignored");
    expect(await balanceOf(member)).toBe(0);
    expect(await balanceOf(other)).toBe(0);
  });

  it("marks an expired session's order expired, and a failed Checkout request charges nothing", async () => {
    const member = await createMember(app);
    const { body } = await placeOrder(member, 1);
    const expired = await deliver(sessionEvent("checkout.session.expired", body.data.order));
    expect(((await expired.json()) as { outcome: string }).outcome).toBe("expired");
    const row = await app.database.db.selectFrom("coin_orders").select("status").where("id", "=", body.data.order.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("expired");
    // Paid after it expired: not credited.
    await deliver(sessionEvent("checkout.session.completed", body.data.order));
    expect(await balanceOf(member)).toBe(0);

    failNextSession = true;
    const failed = await placeOrder(member, 3);
    expect(failed.status).toBe(502);
    expect(failed.body.error?.message).toBe("処理に失敗しました");
    const orders = await app.database.db.selectFrom("coin_orders").select("status").where("user_id", "=", member.id).orderBy("id").execute();
    expect(orders.map((order) => order.status)).toEqual(["expired", "failed"]);
    expect(await balanceOf(member)).toBe(0);
    expect(await ledgerProblems(app.database.db)).toEqual([]);
  });
});
