import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";

/**
 * How a row counts in a table's checksum, where the server changes it on its own schedule whatever a request did:
 * the chat digest's marks (the sweeper, ADR 043) and presence (each process's presence sweep announces who went
 * offline, and migration 0020's trigger copies that to their listings; sockets refresh the last signs of life, ADR
 * 010 and ADR 044). A table mapped to null is left out.
 */
const SERVER_OWNED: Record<string, string | null> = {
  chat_participants: "(to_jsonb(t) - 'digested_message_id' - 'digested_at')::text",
  chat_rooms: "(to_jsonb(t) - 'digest_settled_id')::text",
  users: "(to_jsonb(t) - 'online_announced')::text",
  listings: "(to_jsonb(t) - 'seller_online')::text",
  user_presence: null,
};

/**
 * One checksum per table of the schema, in one round trip (what a refusal must leave as it was), but for what the
 * server changes on its own; `rowText` adds a test's own ways of counting a table's rows (null leaves the table out).
 * Answers the function that takes them.
 */
export async function tableChecksums(db: Database, rowText: Record<string, string | null> = {}) {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  const textOf = { ...SERVER_OWNED, ...rowText };
  const columns = tables
    .filter(({ name }) => textOf[name] !== null)
    .map(({ name }) => {
      const text = textOf[name] ?? "t::text";
      return `(select md5(coalesce(string_agg(${text}, '|' order by ${text}), '')) from "${name}" t) as "${name}"`;
    });
  const query = sql.raw<Record<string, string>>(`select ${columns.join(", ")}`);
  return async () => (await query.execute(db)).rows[0]!;
}
