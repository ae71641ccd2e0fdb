import type { ColumnType } from "kysely";

/** Set by the database on insert (its default), never changed after. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
