import { sql, type Kysely } from "kysely";

/**
 * A chat message carries the id its sender's app made for it (ADR 051): the app can send it again when the
 * answer was lost (a dropped connection, a deploy, an acknowledgement that timed out), and the server stores it once
 * and answers the retry with the stored message. Unique per sender; messages the app itself posts (ticket notices)
 * and those stored before this migration have none.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("chat_messages").addColumn("client_id", "uuid").execute();
  await sql`create unique index chat_messages_sender_client_id_key on chat_messages (sender_id, client_id) where client_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index chat_messages_sender_client_id_key`.execute(db);
  await db.schema.alterTable("chat_messages").dropColumn("client_id").execute();
}
