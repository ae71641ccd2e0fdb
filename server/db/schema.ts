import type { ColumnType, Generated, Insertable, Kysely, Selectable } from "kysely";

/**
 * The database schema as Kysely sees it: one interface per table, snake_case as in SQL.
 * Each migration in migrations/ that changes a table changes its interface here.
 */
export interface DB {
  games: GamesTable;
  inquiries: InquiriesTable;
}

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface GamesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  name_kana: string;
  cover_url: string | null;
  sort_order: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
}

export interface InquiriesTable {
  id: Generated<number>;
  name: string;
  email: string;
  category: string;
  body: string;
  created_at: CreatedAt;
}

export type Database = Kysely<DB>;
export type Game = Selectable<GamesTable>;
export type NewGame = Insertable<GamesTable>;
export type Inquiry = Selectable<InquiriesTable>;
