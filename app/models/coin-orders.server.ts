import { sql, type Selectable, type Transaction } from "kysely";
import type { CoinOrdersTable, DB, Database } from "~/infra/db/tables";
import { log } from "~/infra/logger.server";
import type { Payments } from "~/infra/payments";
import type { Realtime } from "~/infra/realtime";
import { COIN_PACKAGES } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { messages } from "~/lib/messages";
import { RealtimeEvent } from "~/lib/realtime-events";
import { creditPurchase, getBalance } from "./coins.server";
import { publishNotifications, recordNotifications, type PendingNotifications } from "./notification.server";

/**
 * Coin orders (docs/product.md#data, #coins): a package bought through the test provider or Stripe Checkout. An order is paid
 * at most once, and only paying it credits coins, through the ledger, in the transaction that marks it paid.
 */

export class CoinOrderError extends DomainError<404 | 409 | 502, "package_not_found" | "idempotency_conflict" | "provider_failed"> {}

/** An order as the API and the pages show it. */
export interface CoinOrder {
  id: number;
  packageId: number;
  coins: number;
  price: number;
  provider: "test" | "stripe";
  status: Selectable<CoinOrdersTable>["status"];
  checkoutUrl: string | null;
  createdAt: string;
  paidAt: string | null;
}

const columns = ["id", "user_id", "package_id", "coins", "price_jpy", "provider", "provider_ref", "checkout_url", "status", "created_at", "settled_at"] as const;
type OrderRow = Pick<Selectable<CoinOrdersTable>, (typeof columns)[number]>;

function toOrder(row: OrderRow): CoinOrder {
  return {
    id: row.id,
    packageId: row.package_id,
    coins: row.coins,
    price: row.price_jpy,
    provider: row.provider,
    status: row.status,
    checkoutUrl: row.status === "pending" ? row.checkout_url : null,
    createdAt: row.created_at.toISOString(),
    paidAt: row.status === "paid" ? (row.settled_at?.toISOString() ?? null) : null,
  };
}

export const findPackage = (packageId: number) => COIN_PACKAGES.find((pack) => pack.id === packageId);

/** Marks a pending order paid and credits its coins, inside the caller's transaction; null if it was not pending. */
async function payOrder(trx: Transaction<DB>, where: { orderId: number; providerRef?: string }) {
  let query = trx
    .updateTable("coin_orders")
    .set({ status: "paid", settled_at: sql<Date>`now()` })
    .where("id", "=", where.orderId)
    .where("status", "=", "pending");
  if (where.providerRef) {
    // The webhook may arrive before the session id was stored; otherwise it must be this order's session.
    const ref = where.providerRef;
    query = query.set({ provider_ref: ref }).where((eb) => eb.or([eb("provider_ref", "is", null), eb("provider_ref", "=", ref)]));
  }
  const order = await query.returning(columns).executeTakeFirst();
  if (!order) return null;
  await creditPurchase(trx, { userId: order.user_id, coins: order.coins, reference: `coin_order:${order.id}` });
  const pending = await recordNotifications(trx, [
    {
      userId: order.user_id,
      type: "coins",
      title: messages.coins.purchasedTitle(order.coins),
      body: messages.coins.purchasedBody,
      link: "/settings/coin-history",
    },
  ]);
  return { order, pending };
}

/** After the commit: every open tab of the buyer hears the new balance, and the notification. */
async function announcePaid(
  { db, realtime }: { db: Database; realtime: Realtime },
  { order, pending }: { order: OrderRow; pending: PendingNotifications },
) {
  const { totalBalance } = await getBalance(db, order.user_id);
  realtime.toUsers([order.user_id], RealtimeEvent.coinsPurchaseCompleted, { orderId: order.id, coins: order.coins, totalBalance });
  publishNotifications(realtime, pending);
}

/**
 * Places an order for a package (POST /api/coins/orders and the checkout form). The idempotency key makes it
 * happen once: the same key answers the first order; the same key for another package is a 409. The test
 * provider pays the order in the same transaction that creates it; Stripe answers a Checkout URL to go to.
 */
export async function placeOrder({
  db,
  realtime,
  payments,
  userId,
  packageId,
  idempotencyKey,
  urls,
}: {
  db: Database;
  realtime: Realtime;
  payments: Payments;
  userId: string;
  packageId: number;
  idempotencyKey: string;
  /** Where Stripe sends the buyer back (absolute URLs of this site). */
  urls: { success: (orderId: number) => string; cancel: string };
}): Promise<{ order: CoinOrder; isNew: boolean }> {
  const pack = findPackage(packageId);
  if (!pack) throw new CoinOrderError(404, "package_not_found");
  const placed = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("coin_orders")
      .values({
        user_id: userId,
        package_id: pack.id,
        coins: pack.coins,
        price_jpy: pack.price,
        provider: payments.provider,
        idempotency_key: idempotencyKey,
      })
      .onConflict((oc) => oc.columns(["user_id", "idempotency_key"]).doNothing())
      .returning(columns)
      .executeTakeFirst();
    if (!inserted) return { order: null, paid: null };
    const paid = payments.provider === "test" ? await payOrder(trx, { orderId: inserted.id }) : null;
    return { order: paid?.order ?? inserted, paid };
  });
  if (placed.paid) await announcePaid({ db, realtime }, placed.paid);

  let order = placed.order;
  const isNew = !!order;
  if (!order) {
    order = await db.selectFrom("coin_orders").select(columns).where("user_id", "=", userId).where("idempotency_key", "=", idempotencyKey).executeTakeFirstOrThrow();
    if (order.package_id !== pack.id) throw new CoinOrderError(409, "idempotency_conflict");
  }
  if (payments.provider === "stripe" && order.provider === "stripe" && order.status === "pending" && !order.checkout_url) {
    order = await openCheckout({ db, payments, order, urls, packageName: pack.name });
  }
  return { order: toOrder(order), isNew };
}

async function openCheckout({
  db,
  payments,
  order,
  urls,
  packageName,
}: {
  db: Database;
  payments: Extract<Payments, { provider: "stripe" }>;
  order: OrderRow;
  urls: { success: (orderId: number) => string; cancel: string };
  packageName: string;
}) {
  let session: { sessionId: string; url: string };
  try {
    session = await payments.createCheckout({
      orderId: order.id,
      userId: order.user_id,
      packageName,
      priceJpy: order.price_jpy,
      successUrl: urls.success(order.id),
      cancelUrl: urls.cancel,
    });
  } catch (error) {
    log.error({ event: "payment", orderId: order.id, err: error }, "payment: Stripe Checkout could not be opened");
    // Nothing was charged; the order is over. The page renders a new key, so trying again is a new order.
    await db.updateTable("coin_orders").set({ status: "failed", settled_at: sql<Date>`now()` }).where("id", "=", order.id).where("status", "=", "pending").where("checkout_url", "is", null).execute();
    throw new CoinOrderError(502, "provider_failed");
  }
  const updated = await db
    .updateTable("coin_orders")
    .set({ provider_ref: session.sessionId, checkout_url: session.url })
    .where("id", "=", order.id)
    .where((eb) => eb.or([eb("provider_ref", "is", null), eb("provider_ref", "=", session.sessionId)]))
    .returning(columns)
    .executeTakeFirst();
  return updated ?? (await db.selectFrom("coin_orders").select(columns).where("id", "=", order.id).executeTakeFirstOrThrow());
}

/** One of the caller's orders (someone else's is not found). */
export async function getOrder({ db, userId, orderId }: { db: Database; userId: string; orderId: number }) {
  const row = await db.selectFrom("coin_orders").select(columns).where("id", "=", orderId).where("user_id", "=", userId).executeTakeFirst();
  return row ? toOrder(row) : null;
}

/** The Checkout Session object of the events we act on. */
interface SessionObject {
  id: string;
  payment_status?: string;
  metadata?: Record<string, string> | null;
}

/**
 * A verified Stripe event (POST /api/webhooks/stripe). Each event is handled once: its id is stored in the same
 * transaction as what it does, so a delivery again (or five at once) finds it and does nothing. Answers what
 * happened, for the log and the tests.
 */
export async function handlePaymentEvent({
  db,
  realtime,
  event,
}: {
  db: Database;
  realtime: Realtime;
  event: { id: string; type: string; data: { object: unknown } };
}): Promise<"duplicate" | "paid" | "ignored" | "expired" | "failed"> {
  const result = await db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto("payment_events")
      .values({ id: event.id, provider: "stripe", type: event.type })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!fresh) return { outcome: "duplicate" as const };
    const session = event.data.object as SessionObject;
    const orderId = Number(session.metadata?.orderId);
    if (!Number.isSafeInteger(orderId) || orderId <= 0) return { outcome: "ignored" as const };
    switch (event.type) {
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded": {
        // A completed session may still await an asynchronous payment: only "paid" credits coins.
        if (session.payment_status !== "paid") return { outcome: "ignored" as const };
        const paid = await payOrder(trx, { orderId, providerRef: session.id });
        return paid ? { outcome: "paid" as const, paid } : { outcome: "ignored" as const };
      }
      case "checkout.session.expired":
      case "checkout.session.async_payment_failed": {
        const status = event.type === "checkout.session.expired" ? ("expired" as const) : ("failed" as const);
        const updated = await trx
          .updateTable("coin_orders")
          .set({ status, settled_at: sql<Date>`now()` })
          .where("id", "=", orderId)
          .where("status", "=", "pending")
          .where((eb) => eb.or([eb("provider_ref", "is", null), eb("provider_ref", "=", session.id)]))
          .executeTakeFirst();
        return { outcome: Number(updated.numUpdatedRows) > 0 ? status : ("ignored" as const) };
      }
      default:
        return { outcome: "ignored" as const };
    }
  });
  if ("paid" in result && result.paid) await announcePaid({ db, realtime }, result.paid);
  log.info({ event: "payment", eventId: event.id, type: event.type, outcome: result.outcome }, `payment: ${event.type} ${result.outcome}`);
  return result.outcome;
}
