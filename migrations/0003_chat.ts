import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("chat_rooms")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("type", "text", (col) => col.notNull().defaultTo("DIRECT").check(sql`type in ('DIRECT', 'GROUP', 'BOOKING')`))
    .addColumn("name", "text", (col) => col.check(sql`char_length(name) <= 50`))
    // The two participants of a DIRECT room, smaller uuid first: one DIRECT room per pair.
    .addColumn("direct_key", "text", (col) => col.unique())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("last_activity_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("chat_rooms_direct_key", sql`(type = 'DIRECT') = (direct_key is not null)`)
    .execute();

  await db.schema
    .createTable("chat_participants")
    .addColumn("room_id", "uuid", (col) => col.notNull().references("chat_rooms.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("joined_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("last_read_message_id", "bigint", (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("chat_participants_pkey", ["room_id", "user_id"])
    .execute();
  await db.schema.createIndex("chat_participants_user_idx").on("chat_participants").column("user_id").execute();

  await db.schema
    .createTable("chat_messages")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("room_id", "uuid", (col) => col.notNull().references("chat_rooms.id").onDelete("cascade"))
    .addColumn("sender_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("content", "text", (col) => col.notNull().check(sql`char_length(content) between 1 and 1000`))
    .addColumn("message_type", "text", (col) =>
      col.notNull().defaultTo("TEXT").check(sql`message_type in ('TEXT', 'IMAGE', 'ticket_purchased', 'ticket_cancelled', 'SYSTEM')`),
    )
    .addColumn("metadata", "jsonb")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("chat_messages_room_id_idx").on("chat_messages").columns(["room_id", "id"]).execute();

  await db.schema
    .createTable("user_blocks")
    .addColumn("blocker_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("blocked_id", "uuid", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("user_blocks_pkey", ["blocker_id", "blocked_id"])
    .addCheckConstraint("user_blocks_not_self", sql`blocker_id <> blocked_id`)
    .execute();
  await db.schema.createIndex("user_blocks_blocked_idx").on("user_blocks").column("blocked_id").execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["user_blocks", "chat_messages", "chat_participants", "chat_rooms"]) {
    await db.schema.dropTable(table).execute();
  }
}
