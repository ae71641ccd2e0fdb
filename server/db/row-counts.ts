import { sql } from "kysely";
import type { Database } from "../../app/infra/db/tables";

/** Every table of the app's schema and its number of rows, by name: what a backup holds and a restore is checked against. */
export type RowCounts = Record<string, number>;

/** Runs one SQL text and answers its rows: a Kysely database, or a plain pg client inside a snapshot's transaction. */
export type RunQuery = <Row>(text: string) => Promise<Row[]>;

export const queryOf =
  (db: Database): RunQuery =>
  async <Row>(text: string) =>
    (await sql.raw<Row>(text).execute(db)).rows;

/** The row count of every base table in the current schema (the migrations' bookkeeping tables included), in one query. */
export async function countRows(query: RunQuery): Promise<RowCounts> {
  const tables = await query<{ name: string }>(
    "select table_name::text as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1",
  );
  if (tables.length === 0) return {};
  const counts = await query<{ name: string; n: number | string }>(
    tables.map(({ name }) => `select ${literal(name)}::text as name, count(*)::bigint as n from ${identifier(name)}`).join(" union all "),
  );
  return Object.fromEntries(counts.map(({ name, n }) => [name, Number(n)] as const).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
