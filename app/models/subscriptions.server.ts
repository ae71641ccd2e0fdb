import { sql, type Transaction } from "kysely";
import type { DB, Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { SUBSCRIPTION_PERIOD_MS, SUBSCRIPTION_REMINDER_BEFORE_MS, SUBSCRIPTIONS_LIST_MAX, SWEEP_BATCH } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { messages } from "~/lib/messages";
import { formatDateTime } from "~/lib/time";
import type { SubscriptionPlanInput } from "~/lib/validation/subscription";
import { transfer } from "./coins.server";
import { publishNotifications, recordNotifications, type NotificationInput } from "./notification.server";
import { lockPresentUsers } from "./user.server";

/**
 * Subscriptions to creators (docs/product.md#data, #roles; docs/product.md#data, #coins). A seller offers a monthly plan in coins; a
 * subscriber pays through the ledger (subscriber → the seller's earned coins less the fee) and gets 30 days, counted
 * from the current expiry while one is active. No automatic renewal: a reminder 3 days before the expiry, once. Access
 * (subscriber-only posts) holds while `expires_at` is in the future.
 */

type Trx = Transaction<DB>;

export class SubscriptionError extends DomainError<403 | 404 | 409 | 422, "self_subscription" | "no_plan" | "blocked" | "idempotency_conflict" | "profile_required"> {}

export interface Plan {
  sellerId: string;
  monthlyPrice: number;
  description: string;
  updatedAt: string;
}

export interface Subscription {
  id: string;
  subscribee: { uid: string; displayName: string; avatar: string | null };
  expiresAt: string;
  active: boolean;
  /** What renewing costs now (null: the seller withdrew their plan). */
  monthlyPrice: number | null;
}

const toPlan = (row: { seller_id: string; monthly_price: number; description: string; updated_at: Date }): Plan => ({
  sellerId: row.seller_id,
  monthlyPrice: row.monthly_price,
  description: row.description,
  updatedAt: row.updated_at.toISOString(),
});

/** The seller's plan, or null when they offer none. */
export async function getPlan({ db, sellerId }: { db: Database; sellerId: string }): Promise<Plan | null> {
  const row = await db.selectFrom("subscription_plans").selectAll().where("seller_id", "=", sellerId).executeTakeFirst();
  return row ? toPlan(row) : null;
}

/** Sets or changes the seller's plan (PUT /api/store/subscription-plan, the plan page). Active subscriptions keep their expiry. */
export async function savePlan({ db, sellerId, input }: { db: Database; sellerId: string; input: SubscriptionPlanInput }): Promise<Plan> {
  const seller = await db.selectFrom("users").select("id").where("id", "=", sellerId).executeTakeFirst();
  if (!seller) throw new SubscriptionError(403, "profile_required");
  const row = await db
    .insertInto("subscription_plans")
    .values({ seller_id: sellerId, monthly_price: input.monthlyPrice, description: input.description })
    .onConflict((oc) => oc.column("seller_id").doUpdateSet({ monthly_price: input.monthlyPrice, description: input.description, updated_at: sql<Date>`now()` }))
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPlan(row);
}

/** Withdraws the plan: nobody new can subscribe or renew; those subscribed keep access until their expiry. */
export async function withdrawPlan({ db, sellerId }: { db: Database; sellerId: string }) {
  await db.deleteFrom("subscription_plans").where("seller_id", "=", sellerId).execute();
}

function subscriptionsQuery(db: Database, now: Date) {
  return db
    .selectFrom("subscriptions as s")
    .innerJoin("users as u", "u.id", "s.subscribee_id")
    .leftJoin("subscription_plans as p", "p.seller_id", "s.subscribee_id")
    .select(["s.id", "s.subscribee_id", "s.expires_at", "u.display_name", "u.avatar_url", "p.monthly_price", sql<boolean>`s.expires_at > ${now}`.as("active")]);
}
type SubscriptionRow = Awaited<ReturnType<ReturnType<typeof subscriptionsQuery>["executeTakeFirstOrThrow"]>>;

const toSubscription = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  subscribee: { uid: row.subscribee_id, displayName: row.display_name, avatar: row.avatar_url },
  expiresAt: row.expires_at.toISOString(),
  active: row.active,
  monthlyPrice: row.monthly_price,
});

/**
 * Subscribes (or renews) for 30 days (POST /api/subscriptions, the confirmation page). One transaction: the pair's
 * subscription row is locked (made if missing), a payment with this idempotency key already made answers the first
 * result, the coins move through the ledger, the payment is recorded and the expiry moves to
 * max(expiry, now) + 30 days. Yourself 422, no plan 404, someone who blocked you 403, too few coins 422.
 */
export async function subscribe({
  db,
  realtime,
  feePercent,
  subscriberId,
  subscribeeId,
  idempotencyKey,
  now = new Date(),
}: {
  db: Database;
  realtime: Realtime;
  feePercent: number;
  subscriberId: string;
  subscribeeId: string;
  idempotencyKey: string;
  now?: Date;
}) {
  if (subscriberId === subscribeeId) throw new SubscriptionError(422, "self_subscription");
  const { subscriptionId, created, pending } = await db.transaction().execute(async (trx) => {
    // Both people's rows first (before the pair's row): an account leaving (退会) at the same moment takes turns with this.
    const present = await lockPresentUsers(trx, [subscriberId, subscribeeId]);
    if (!present.has(subscribeeId)) throw new SubscriptionError(404, "no_plan");
    const subscriber = await trx.selectFrom("users").select(["id", "display_name"]).where("id", "=", subscriberId).executeTakeFirst();
    if (!subscriber) throw new SubscriptionError(403, "profile_required");
    const plan = await trx.selectFrom("subscription_plans").selectAll().where("seller_id", "=", subscribeeId).executeTakeFirst();
    if (!plan) throw new SubscriptionError(404, "no_plan");
    const blocked = await trx.selectFrom("user_blocks").select("blocker_id").where("blocker_id", "=", subscribeeId).where("blocked_id", "=", subscriberId).executeTakeFirst();
    if (blocked) throw new SubscriptionError(403, "blocked");

    // The pair's row serialises every payment between them (first ones included: the unique pair waits for the other).
    await trx
      .insertInto("subscriptions")
      .values({ subscriber_id: subscriberId, subscribee_id: subscribeeId, expires_at: now })
      .onConflict((oc) => oc.columns(["subscriber_id", "subscribee_id"]).doNothing())
      .execute();
    const subscription = await trx
      .selectFrom("subscriptions")
      .select(["id", "expires_at"])
      .where("subscriber_id", "=", subscriberId)
      .where("subscribee_id", "=", subscribeeId)
      .forUpdate()
      .executeTakeFirstOrThrow();

    const paid = await trx.selectFrom("subscription_payments").select(["subscribee_id"]).where("subscriber_id", "=", subscriberId).where("idempotency_key", "=", idempotencyKey).executeTakeFirst();
    if (paid) {
      if (paid.subscribee_id !== subscribeeId) throw new SubscriptionError(409, "idempotency_conflict");
      return { subscriptionId: subscription.id, created: false, pending: [] };
    }

    const payment = await trx
      .insertInto("subscription_payments")
      .values({
        subscription_id: subscription.id,
        subscriber_id: subscriberId,
        subscribee_id: subscribeeId,
        price: plan.monthly_price,
        expires_at: new Date(Math.max(subscription.expires_at.getTime(), now.getTime()) + SUBSCRIPTION_PERIOD_MS),
        idempotency_key: idempotencyKey,
      })
      .returning(["id", "expires_at"])
      .executeTakeFirstOrThrow();
    const { credited } = await transfer(trx, { fromId: subscriberId, toId: subscribeeId, amount: plan.monthly_price, purpose: "subscription", reference: `subscription:${payment.id}`, feePercent });
    await trx.updateTable("subscriptions").set({ expires_at: payment.expires_at, updated_at: now }).where("id", "=", subscription.id).execute();
    const pending = await recordNotifications(trx, [
      {
        userId: subscribeeId,
        type: "subscription",
        title: messages.subscriptions.newSubscriberTitle(subscriber.display_name),
        body: messages.subscriptions.newSubscriberBody(credited),
        link: "/settings/store/subscription",
      },
    ]);
    return { subscriptionId: subscription.id, created: true, pending };
  });
  publishNotifications(realtime, pending);
  const row = await subscriptionsQuery(db, now).where("s.id", "=", subscriptionId).executeTakeFirstOrThrow();
  return { subscription: toSubscription(row), created };
}

/** The caller's subscriptions, active ones first (soonest to expire first), then expired ones (latest first). */
export async function listSubscriptions({
  db,
  subscriberId,
  limit = SUBSCRIPTIONS_LIST_MAX,
  now = new Date(),
}: {
  db: Database;
  subscriberId: string;
  /** At most SUBSCRIPTIONS_LIST_MAX: active ones first, soonest to end first. */
  limit?: number;
  now?: Date;
}) {
  const rows = await subscriptionsQuery(db, now)
    .where("s.subscriber_id", "=", subscriberId)
    // A row whose first payment never happened (it rolled back) does not exist; every row here was paid for.
    .orderBy(sql`s.expires_at > ${now}`, "desc")
    .orderBy(sql`case when s.expires_at > ${now} then s.expires_at end`, "asc")
    .orderBy("s.expires_at", "desc")
    .orderBy("s.subscribee_id")
    .limit(Math.min(limit, SUBSCRIPTIONS_LIST_MAX))
    .execute();
  return rows.map(toSubscription);
}

/** The viewer's subscription to one person, if any (their profile shows it). */
export async function subscriptionTo({ db, subscriberId, subscribeeId, now = new Date() }: { db: Database; subscriberId: string; subscribeeId: string; now?: Date }) {
  const row = await subscriptionsQuery(db, now).where("s.subscriber_id", "=", subscriberId).where("s.subscribee_id", "=", subscribeeId).executeTakeFirst();
  return row ? toSubscription(row) : null;
}

/** How many people subscribe to the user now. */
export async function countSubscribers({ db, subscribeeId, now = new Date() }: { db: Database; subscribeeId: string; now?: Date }) {
  const row = await db
    .selectFrom("subscriptions")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("subscribee_id", "=", subscribeeId)
    .where("expires_at", ">", now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The sweeper's job: a reminder to each subscriber whose subscription ends within 3 days, once per expiry (a renewal
 * moves the expiry, and that one is reminded in its turn). Up to SWEEP_BATCH rows are claimed with SKIP LOCKED in
 * one transaction with their notifications, so two sweepers never remind twice. (One row per transaction, as it was,
 * made a pass of 100 reminders 300–530 ms; a subscription of 5M at SCALE=10 enters its last 3 days every second or so.)
 */
export const subscriptionReminderJob = {
  name: "subscription reminder",
  async run({ db, realtime, now }: { db: Database; realtime: Realtime; now: Date }) {
    const pending = await db.transaction().execute(async (trx: Trx) => {
      const due = await trx
        .selectFrom("subscriptions as s")
        .innerJoin("users as u", "u.id", "s.subscribee_id")
        .select(["s.id", "s.subscriber_id", "s.subscribee_id", "s.expires_at", "u.display_name"])
        .where("s.expires_at", ">", now)
        .where("s.expires_at", "<=", new Date(now.getTime() + SUBSCRIPTION_REMINDER_BEFORE_MS))
        // As migration 0025's partial index says it, so that the index (of the expiries not reminded yet) is used.
        .where(sql<boolean>`s.reminded_expires_at is distinct from s.expires_at`)
        .orderBy("s.expires_at")
        .limit(SWEEP_BATCH)
        .forUpdate("s")
        .skipLocked()
        .execute();
      if (due.length === 0) return [];
      await trx
        .updateTable("subscriptions")
        .set({ reminded_expires_at: sql`expires_at` })
        .where("id", "in", due.map((row) => row.id))
        .execute();
      const reminders = due.map(
        (row): NotificationInput => ({
          userId: row.subscriber_id,
          type: "subscription_expiring",
          title: messages.subscriptions.expiringTitle(row.display_name),
          body: messages.subscriptions.expiringBody(formatDateTime(row.expires_at)),
          link: `/u/${row.subscribee_id}/subscribe`,
        }),
      );
      return recordNotifications(trx, reminders);
    });
    publishNotifications(realtime, pending);
    return pending.length;
  },
};
