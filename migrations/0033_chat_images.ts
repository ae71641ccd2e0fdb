import { sql, type Kysely } from "kysely";

/**
 * Pictures in chat (ADR 069). An image message's upload is its own column, `chat_messages.upload_id`, beside the
 * content that names it (the API sends the upload's id as the content, docs/product.md#chat): a foreign key, so the message and the
 * picture stay together, and unique, so one upload is shown by one message only. The index also answers the private
 * media route's question "in which room is this picture?" in one lookup.
 *
 * A chat upload is private and has a small variant for thumbnails: `uploads.variant_url`, its reference (`private:…`
 * like the full one's), null for the kinds that have none.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("uploads").addColumn("variant_url", "text").execute();
  await db.schema
    .alterTable("chat_messages")
    .addColumn("upload_id", "uuid", (col) => col.references("uploads.id").onDelete("restrict"))
    .execute();
  await sql`create unique index chat_messages_upload_id_key on chat_messages (upload_id) where upload_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index chat_messages_upload_id_key`.execute(db);
  await db.schema.alterTable("chat_messages").dropColumn("upload_id").execute();
  await db.schema.alterTable("uploads").dropColumn("variant_url").execute();
}
