import { sql, type Kysely } from "kysely";

/**
 * Reviews (docs/product.md#data): after a completed booking each of its two people may review the other once, the buyer with a
 * coin tip (moved through the ledger under `review:{id}`).
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("reviews")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("booking_id", "uuid", (col) => col.notNull().references("bookings.id").onDelete("restrict"))
    .addColumn("reviewer_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("reviewee_id", "uuid", (col) => col.notNull().references("users.id").onDelete("restrict"))
    .addColumn("rating", "integer", (col) => col.notNull().check(sql`rating between 1 and 5`))
    .addColumn("comment", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(comment) <= 500`))
    .addColumn("tip_amount", "integer", (col) => col.notNull().defaultTo(0).check(sql`tip_amount >= 0`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    // One review per booking and reviewer: a second submit (a double click, two tabs) finds the first.
    .addUniqueConstraint("reviews_one_per_reviewer", ["booking_id", "reviewer_id"])
    .addCheckConstraint("reviews_not_self", sql`reviewer_id <> reviewee_id`)
    .execute();
  await db.schema.createIndex("reviews_reviewee_idx").on("reviews").columns(["reviewee_id", "created_at desc"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("reviews").execute();
}
