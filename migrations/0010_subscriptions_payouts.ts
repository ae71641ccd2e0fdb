import { sql, type Kysely } from "kysely";

/**
 * Subscriptions to creators and seller payouts (docs/product.md#data, #coins).
 * - A seller's plan: a monthly price in coins and what subscribers get; withdrawing deletes it (subscribers keep what
 *   they paid for until it expires).
 * - One subscription row per pair (0002) whose `expires_at` each payment moves forward by 30 days; every payment is a
 *   row of its own, unique per subscriber and idempotency key, so the same form posted twice pays once.
 * - `reminded_expires_at`: the expiry the 3-days-before reminder was sent for (a renewal moves the expiry, so the next
 *   one is reminded again).
 * - Payout requests: earned coins out (the ledger's debitEarned under `payout:{id}`), the bank account as entered,
 *   requested → paid | rejected by an operator.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("subscription_plans")
    .addColumn("seller_id", "uuid", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("monthly_price", "integer", (col) => col.notNull().check(sql`monthly_price between 100 and 50000`))
    .addColumn("description", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(description) <= 300`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.alterTable("subscriptions").addColumn("reminded_expires_at", "timestamptz").execute();
  await db.schema.alterTable("subscriptions").addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`)).execute();
  // The reminder job looks for subscriptions expiring soon; the subscribers' count for one subscribee.
  await db.schema.createIndex("subscriptions_expires_idx").on("subscriptions").column("expires_at").execute();
  await db.schema.createIndex("subscriptions_subscribee_idx").on("subscriptions").columns(["subscribee_id", "expires_at"]).execute();

  await db.schema
    .createTable("subscription_payments")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("subscription_id", "uuid", (col) => col.notNull().references("subscriptions.id").onDelete("restrict"))
    .addColumn("subscriber_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("subscribee_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("price", "integer", (col) => col.notNull().check(sql`price > 0`))
    .addColumn("expires_at", "timestamptz", (col) => col.notNull())
    .addColumn("idempotency_key", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("subscription_payments_key", ["subscriber_id", "idempotency_key"])
    .execute();

  await db.schema
    .createTable("payout_requests")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("seller_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("coins", "integer", (col) => col.notNull().check(sql`coins >= 1000`))
    .addColumn("yen_amount", "integer", (col) => col.notNull().check(sql`yen_amount >= 0`))
    .addColumn("bank_name", "text", (col) => col.notNull().check(sql`char_length(bank_name) between 1 and 40`))
    .addColumn("branch_name", "text", (col) => col.notNull().check(sql`char_length(branch_name) between 1 and 40`))
    .addColumn("account_type", "text", (col) => col.notNull().check(sql`account_type in ('ordinary', 'checking')`))
    .addColumn("account_number", "text", (col) => col.notNull().check(sql`account_number ~ '^[0-9]{7}$'`))
    .addColumn("account_holder", "text", (col) => col.notNull().check(sql`char_length(account_holder) between 1 and 60`))
    .addColumn("status", "text", (col) => col.notNull().defaultTo("requested").check(sql`status in ('requested', 'paid', 'rejected')`))
    .addColumn("idempotency_key", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("decided_at", "timestamptz")
    .addUniqueConstraint("payout_requests_key", ["seller_id", "idempotency_key"])
    .execute();
  await db.schema.createIndex("payout_requests_seller_idx").on("payout_requests").columns(["seller_id", "created_at desc"]).execute();
  await db.schema.createIndex("payout_requests_status_idx").on("payout_requests").columns(["status", "created_at"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("payout_requests").execute();
  await db.schema.dropTable("subscription_payments").execute();
  await db.schema.dropIndex("subscriptions_subscribee_idx").execute();
  await db.schema.dropIndex("subscriptions_expires_idx").execute();
  await db.schema.alterTable("subscriptions").dropColumn("updated_at").execute();
  await db.schema.alterTable("subscriptions").dropColumn("reminded_expires_at").execute();
  await db.schema.dropTable("subscription_plans").execute();
}
