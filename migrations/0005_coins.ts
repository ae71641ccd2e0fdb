import { sql, type Kysely } from "kysely";

/**
 * Coins (docs/product.md#data, #coins): a wallet per user, the append-only log of every change, coins held in escrow, coin
 * orders and the payment provider's events. Balances and amounts are integer coins; prices integer yen.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("coin_wallets")
    .addColumn("user_id", "uuid", (col) => col.primaryKey().references("users.id").onDelete("restrict"))
    .addColumn("purchased", "integer", (col) => col.notNull().defaultTo(0).check(sql`purchased >= 0`))
    .addColumn("earned", "integer", (col) => col.notNull().defaultTo(0).check(sql`earned >= 0`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  // Every change of a wallet, in the transaction that changed it. `amount` is the change of the total (signed);
  // the balances after it are the wallet's. `fee` is what the platform kept of a credit to a seller.
  await db.schema
    .createTable("coin_transactions")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "uuid", (col) => col.notNull().references("coin_wallets.user_id").onDelete("restrict"))
    .addColumn("kind", "text", (col) => col.notNull().check(sql`char_length(kind) between 1 and 40`))
    .addColumn("amount", "integer", (col) => col.notNull().check(sql`amount <> 0`))
    .addColumn("purchased_after", "integer", (col) => col.notNull().check(sql`purchased_after >= 0`))
    .addColumn("earned_after", "integer", (col) => col.notNull().check(sql`earned_after >= 0`))
    .addColumn("fee", "integer", (col) => col.notNull().defaultTo(0).check(sql`fee >= 0`))
    // What caused it: `coin_order:12`, `booking:…`, `review:…`.
    .addColumn("reference", "text", (col) => col.notNull().check(sql`char_length(reference) between 1 and 100`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("coin_transactions_user_idx").on("coin_transactions").columns(["user_id", "id desc"]).execute();

  // Coins taken from a payer and held until they go to the payee (less the fee) or back to the payer. Which of
  // the payer's balances they came from is kept, so a refund puts them back where they were.
  await db.schema
    .createTable("coin_escrows")
    .addColumn("reference", "text", (col) => col.primaryKey().check(sql`char_length(reference) between 1 and 100`))
    .addColumn("payer_id", "uuid", (col) => col.notNull().references("coin_wallets.user_id").onDelete("restrict"))
    .addColumn("payee_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("purchased", "integer", (col) => col.notNull().check(sql`purchased >= 0`))
    .addColumn("earned", "integer", (col) => col.notNull().check(sql`earned >= 0`))
    .addColumn("status", "text", (col) => col.notNull().defaultTo("held").check(sql`status in ('held', 'released', 'refunded')`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("settled_at", "timestamptz")
    .addCheckConstraint("coin_escrows_settled", sql`(status = 'held') = (settled_at is null)`)
    .execute();

  await db.schema
    .createTable("coin_orders")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("package_id", "integer", (col) => col.notNull())
    .addColumn("coins", "integer", (col) => col.notNull().check(sql`coins > 0`))
    .addColumn("price_jpy", "integer", (col) => col.notNull().check(sql`price_jpy > 0`))
    .addColumn("provider", "text", (col) => col.notNull().check(sql`provider in ('test', 'stripe')`))
    .addColumn("provider_ref", "text", (col) => col.unique())
    .addColumn("checkout_url", "text")
    .addColumn("status", "text", (col) =>
      col.notNull().defaultTo("pending").check(sql`status in ('pending', 'paid', 'failed', 'expired')`),
    )
    // The same form or request sent again (a double click, a retry) finds the first order by this key.
    .addColumn("idempotency_key", "text", (col) => col.notNull().check(sql`char_length(idempotency_key) between 1 and 255`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("settled_at", "timestamptz")
    .addUniqueConstraint("coin_orders_idempotency_key", ["user_id", "idempotency_key"])
    .execute();
  await db.schema.createIndex("coin_orders_user_idx").on("coin_orders").columns(["user_id", "id desc"]).execute();

  // Payment provider events already handled: a webhook delivered again is answered 200 and ignored.
  await db.schema
    .createTable("payment_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("provider", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("received_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["payment_events", "coin_orders", "coin_escrows", "coin_transactions", "coin_wallets"]) {
    await db.schema.dropTable(table).execute();
  }
}
