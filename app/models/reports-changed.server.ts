import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";

/**
 * The channel notified, in the transaction, whenever the open reports change (one filed, some decided), by the app or
 * by `npm run moderation` in a process of its own: every server process hears it once the change commits and sends
 * the desks' sockets the new count (ADR 071, server/app/realtime.ts).
 */
export const REPORTS_CHANGED_CHANNEL = "reports_changed";

/** Says, in `trx`, that the open reports changed: PostgreSQL delivers it to the listening processes when it commits. */
export async function notifyReportsChanged(trx: Database) {
  await sql`select pg_notify(${REPORTS_CHANGED_CHANNEL}, '')`.execute(trx);
}
