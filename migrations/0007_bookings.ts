import { sql, type Kysely } from "kysely";

/**
 * Tickets and bookings (docs/product.md#data, #bookings): what sellers offer (listings), what buyers book (bookings, with the coins
 * in escrow under `booking:{id}`), and extensions bought while a session is in progress. The status and its
 * timestamps are checked together, so a row can never claim a state its timestamps contradict.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("listings")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("seller_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("game_id", "integer", (col) => col.notNull().references("games.id").onDelete("restrict"))
    .addColumn("title", "text", (col) => col.notNull().check(sql`char_length(title) between 1 and 60`))
    .addColumn("description", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(description) <= 1000`))
    .addColumn("price_per_unit", "integer", (col) => col.notNull().check(sql`price_per_unit between 100 and 50000`))
    .addColumn("minutes_per_unit", "integer", (col) => col.notNull().check(sql`minutes_per_unit in (15, 30, 60, 90, 120)`))
    .addColumn("max_units", "integer", (col) => col.notNull().check(sql`max_units between 1 and 8`))
    .addColumn("status", "text", (col) => col.notNull().defaultTo("active").check(sql`status in ('active', 'paused', 'archived')`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("listings_seller_idx").on("listings").columns(["seller_id", "created_at desc"]).execute();
  await db.schema.createIndex("listings_active_idx").on("listings").columns(["game_id", "created_at desc"]).where(sql.ref("status"), "=", "active").execute();

  await db.schema
    .createTable("bookings")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("listing_id", "uuid", (col) => col.notNull().references("listings.id").onDelete("restrict"))
    .addColumn("buyer_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("seller_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    // Copied from the listing when booked: a later edit of the listing does not change a booking.
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("price_per_unit", "integer", (col) => col.notNull().check(sql`price_per_unit > 0`))
    .addColumn("minutes_per_unit", "integer", (col) => col.notNull().check(sql`minutes_per_unit > 0`))
    .addColumn("units", "integer", (col) => col.notNull().check(sql`units > 0`))
    .addColumn("total_price", "integer", (col) => col.notNull())
    .addColumn("total_minutes", "integer", (col) => col.notNull())
    .addColumn("desired_start_at", "timestamptz", (col) => col.notNull())
    .addColumn("note", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(note) <= 500`))
    .addColumn("status", "text", (col) =>
      col.notNull().defaultTo("pending").check(sql`status in ('pending', 'accepted', 'in_progress', 'completed', 'cancelled')`),
    )
    .addColumn("accept_deadline_at", "timestamptz", (col) => col.notNull())
    .addColumn("accepted_at", "timestamptz")
    .addColumn("started_at", "timestamptz")
    .addColumn("ends_at", "timestamptz")
    .addColumn("buyer_checked_in_at", "timestamptz")
    .addColumn("seller_checked_in_at", "timestamptz")
    .addColumn("completed_at", "timestamptz")
    .addColumn("completed_by", "text", (col) => col.check(sql`completed_by in ('buyer', 'seller', 'auto')`))
    .addColumn("cancelled_at", "timestamptz")
    .addColumn("cancelled_by", "text", (col) => col.check(sql`cancelled_by in ('buyer', 'seller', 'auto')`))
    .addColumn("cancel_reason", "text", (col) => col.check(sql`cancel_reason in ('buyer', 'seller', 'no_show', 'accept_deadline', 'not_started')`))
    // The purchase form or request sent again (a double click, a retry) finds the first booking by this key.
    .addColumn("idempotency_key", "text", (col) => col.notNull().check(sql`char_length(idempotency_key) between 1 and 255`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("bookings_idempotency_key", ["buyer_id", "idempotency_key"])
    .addCheckConstraint("bookings_not_self", sql`buyer_id <> seller_id`)
    .addCheckConstraint("bookings_totals", sql`total_price = price_per_unit * units and total_minutes = minutes_per_unit * units`)
    .addCheckConstraint(
      "bookings_status_times",
      sql`(accepted_at is not null) = (status in ('accepted', 'in_progress', 'completed') or (status = 'cancelled' and accepted_at is not null))
        and (started_at is not null) = (ends_at is not null)
        and (started_at is not null) = (status in ('in_progress', 'completed'))
        and (completed_at is not null) = (status = 'completed') and (completed_by is not null) = (status = 'completed')
        and (cancelled_at is not null) = (status = 'cancelled') and (cancelled_by is not null) = (status = 'cancelled')
        and (cancel_reason is not null) = (status = 'cancelled')`,
    )
    .execute();
  await db.schema.createIndex("bookings_buyer_idx").on("bookings").columns(["buyer_id", "created_at desc"]).execute();
  await db.schema.createIndex("bookings_seller_idx").on("bookings").columns(["seller_id", "created_at desc"]).execute();
  // What the sweeper looks for: only bookings that are still open are in these indexes.
  await db.schema.createIndex("bookings_pending_deadline_idx").on("bookings").column("accept_deadline_at").where(sql.ref("status"), "=", "pending").execute();
  await db.schema.createIndex("bookings_accepted_start_idx").on("bookings").column("desired_start_at").where(sql.ref("status"), "=", "accepted").execute();
  await db.schema.createIndex("bookings_in_progress_end_idx").on("bookings").column("ends_at").where(sql.ref("status"), "=", "in_progress").execute();

  // More units bought while a session is in progress; the key makes a repeated request buy them once.
  await db.schema
    .createTable("booking_extensions")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("booking_id", "uuid", (col) => col.notNull().references("bookings.id").onDelete("restrict"))
    .addColumn("units", "integer", (col) => col.notNull().check(sql`units > 0`))
    .addColumn("price", "integer", (col) => col.notNull().check(sql`price > 0`))
    .addColumn("minutes", "integer", (col) => col.notNull().check(sql`minutes > 0`))
    .addColumn("idempotency_key", "text", (col) => col.notNull().check(sql`char_length(idempotency_key) between 1 and 255`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("booking_extensions_idempotency_key", ["booking_id", "idempotency_key"])
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["booking_extensions", "bookings", "listings"]) await db.schema.dropTable(table).execute();
}
