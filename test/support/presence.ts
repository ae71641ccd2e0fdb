import type { RawBuilder } from "kysely";
import type { Database } from "~/infra/db/tables";

/** Sets the user's last sign of life (`user_presence`, migration 0026) to `at`, as a heartbeat then would have. */
export const seenAt = (db: Database, userId: string, at: Date | RawBuilder<Date>) =>
  db
    .insertInto("user_presence")
    .values({ user_id: userId, last_seen_at: at })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ last_seen_at: at }))
    .execute();
