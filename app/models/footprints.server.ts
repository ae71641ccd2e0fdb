import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import { onlineFor } from "./presence.server";

/**
 * Footprints (足あと, docs/product.md#data): a signed-in person with a profile who opens someone's profile leaves one row per
 * (visitor, visited), whose time moves forward on each visit. Visiting your own profile leaves none.
 */

export interface Footprint {
  visitor: { uid: string; displayName: string; avatar: string | null; online: boolean };
  visitedAt: string;
}

/**
 * Records a visit at `at` (now by default). One statement: concurrent visits meet on the primary key and the later
 * time wins, so there is never a second row nor a time going backwards.
 */
export async function recordFootprint({ db, visitorId, visitedId, at = new Date() }: { db: Database; visitorId: string; visitedId: string; at?: Date }) {
  if (visitorId === visitedId) return;
  await db
    .insertInto("footprints")
    // Only a visitor with a profile (a user row) leaves a footprint; the visited one exists (the page found them).
    .columns(["visitor_id", "visited_id", "visited_at"])
    .expression((eb) =>
      eb
        .selectFrom("users")
        .select([sql<string>`${visitorId}::uuid`.as("visitor_id"), sql<string>`${visitedId}::uuid`.as("visited_id"), sql<Date>`${at}::timestamptz`.as("visited_at")])
        .where("id", "=", visitorId),
    )
    .onConflict((oc) =>
      oc.columns(["visitor_id", "visited_id"]).doUpdateSet({ visited_at: sql`greatest(footprints.visited_at, excluded.visited_at)` }),
    )
    .execute();
}

/** Who visited the user, the latest visit first; visitors the user blocked are left out. */
export async function listFootprints({ db, userId, limit, offset }: { db: Database; userId: string; limit: number; offset: number }) {
  const rows = await db
    .selectFrom("footprints as f")
    .innerJoin("users as u", "u.id", "f.visitor_id")
    .select(["u.id", "u.display_name", "u.avatar_url", "f.visited_at", onlineFor(userId).as("online")])
    .where("f.visited_id", "=", userId)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("user_blocks as b").select("b.blocker_id").where("b.blocker_id", "=", userId).whereRef("b.blocked_id", "=", "f.visitor_id"))),
    )
    .orderBy("f.visited_at", "desc")
    .orderBy("f.visitor_id")
    .limit(limit + 1)
    .offset(offset)
    .execute();
  const footprints: Footprint[] = rows.slice(0, limit).map((row) => ({
    visitor: { uid: row.id, displayName: row.display_name, avatar: row.avatar_url, online: row.online },
    visitedAt: row.visited_at.toISOString(),
  }));
  return { footprints, hasMore: rows.length > limit };
}
