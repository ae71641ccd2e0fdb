// Moved to ./tables/ (one file per domain); this re-export lives until every import names ./tables.
export type * from "./tables";
