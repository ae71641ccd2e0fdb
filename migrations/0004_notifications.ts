import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("notifications")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (col) => col.notNull().check(sql`char_length(type) between 1 and 40`))
    .addColumn("title", "text", (col) => col.notNull().check(sql`char_length(title) between 1 and 100`))
    .addColumn("body", "text", (col) => col.notNull().defaultTo("").check(sql`char_length(body) <= 500`))
    // A path inside the app ("/chat/…"), never an absolute URL: a notification cannot send anyone off-site.
    .addColumn("link", "text", (col) => col.check(sql`link ~ '^/([^/\\\\]|$)'`))
    .addColumn("read_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // The list (newest first) and the unread count, per user.
  await db.schema.createIndex("notifications_user_created_idx").on("notifications").columns(["user_id", "created_at desc", "id"]).execute();
  await db.schema
    .createIndex("notifications_unread_idx")
    .on("notifications")
    .column("user_id")
    .where(sql.ref("read_at"), "is", null)
    .execute();

  // Presence (docs/product.md#realtime): last_seen_at is the newest heartbeat or connected socket; online_announced is what
  // the `presence` events last said, so that one process (of any number) announces each change once.
  await db.schema
    .alterTable("users")
    .addColumn("online_announced", "boolean", (col) => col.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex("users_online_announced_idx")
    .on("users")
    .column("last_seen_at")
    .where(sql.ref("online_announced"), "=", true)
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("users_online_announced_idx").execute();
  await db.schema.alterTable("users").dropColumn("online_announced").execute();
  await db.schema.dropTable("notifications").execute();
}
