import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import { DESK_PERSON_ROWS, DESK_SEARCH_MAX } from "~/lib/constants/desk";
import { UUID } from "~/lib/validation/fields";
import { getBalance, listTransactions } from "./coins.server";

/**
 * People as the operators' desk reads them (ADR 071): found by address, display name or id, and one person's record
 * (state, decisions about them with their reasons, coins and recent ledger rows, listings, bookings in flight,
 * reports by and against them). Read only: what the desk changes about a person goes through the moderation model.
 */

export interface PersonHit {
  id: string;
  displayName: string;
  email: string | null;
  suspendedUntil: Date | null;
  bannedAt: Date | null;
  left: boolean;
}

/** `%` and `_` typed into a search are themselves, not wildcards. */
const likeEscaped = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Members whose id is `q`, whose address is or starts with it, or whose display name holds it; at most DESK_SEARCH_MAX. */
export async function searchPeople({ db, q }: { db: Database; q: string }): Promise<PersonHit[]> {
  const needle = q.trim();
  if (needle === "") return [];
  let query = db.selectFrom("users").select(["id", "display_name", "email", "suspended_until", "banned_at", "deleted_at"]);
  if (UUID.test(needle)) query = query.where("id", "=", needle.toLowerCase());
  else if (needle.includes("@")) query = query.where(sql<boolean>`lower(email) like ${`${likeEscaped(needle.toLowerCase())}%`}`);
  else query = query.where(sql<boolean>`display_name ilike ${`%${likeEscaped(needle)}%`}`);
  const rows = await query.orderBy("display_name").orderBy("id").limit(DESK_SEARCH_MAX).execute();
  return rows.map((row) => ({ id: row.id, displayName: row.display_name, email: row.email, suspendedUntil: row.suspended_until, bannedAt: row.banned_at, left: row.deleted_at !== null }));
}

/** Bookings still under way: not completed, not cancelled. */
const IN_FLIGHT = ["pending", "accepted", "in_progress"] as const;

/** One person's record for the desk, or null for an id no member has. */
export async function getPerson({ db, userId }: { db: Database; userId: string }) {
  const user = await db
    .selectFrom("users")
    .select(["id", "display_name", "email", "bio", "created_at", "suspended_until", "banned_at", "deleted_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return null;
  const [balance, ledger, sanctions, listings, bookings, reportsAgainst, reportsBy, flags] = await Promise.all([
    getBalance(db, userId),
    listTransactions(db, { userId, limit: DESK_PERSON_ROWS, offset: 0 }),
    db.selectFrom("moderation_actions").selectAll().where("user_id", "=", userId).orderBy("id", "desc").limit(DESK_PERSON_ROWS).execute(),
    db
      .selectFrom("listings")
      .select(["id", "title", "status", "price_per_unit", "created_at", "hidden_at"])
      .where("seller_id", "=", userId)
      .orderBy("created_at", "desc")
      .limit(DESK_PERSON_ROWS)
      .execute(),
    db
      .selectFrom("bookings")
      .select(["id", "title", "status", "total_price", "buyer_id", "seller_id", "desired_start_at"])
      .where((eb) => eb.or([eb("buyer_id", "=", userId), eb("seller_id", "=", userId)]))
      .where("status", "in", IN_FLIGHT)
      .orderBy("desired_start_at")
      .limit(DESK_PERSON_ROWS)
      .execute(),
    db
      .selectFrom("reports")
      .select(["id", "target_type", "target_id", "reason", "status", "created_at"])
      .where("target_user_id", "=", userId)
      .orderBy("id", "desc")
      .limit(DESK_PERSON_ROWS)
      .execute(),
    db
      .selectFrom("reports")
      .select(["id", "target_type", "target_id", "reason", "status", "created_at"])
      .where("reporter_id", "=", userId)
      .orderBy("id", "desc")
      .limit(DESK_PERSON_ROWS)
      .execute(),
    db.selectFrom("off_platform_flags").select((eb) => eb.fn.countAll<number>().as("count")).where("user_id", "=", userId).executeTakeFirstOrThrow(),
  ]);
  return {
    person: {
      id: user.id,
      displayName: user.display_name,
      email: user.email,
      bio: user.bio,
      createdAt: user.created_at,
      suspendedUntil: user.suspended_until,
      bannedAt: user.banned_at,
      left: user.deleted_at !== null,
      offPlatformFlags: Number(flags.count),
    },
    balance,
    ledger: ledger.transactions,
    sanctions,
    listings: listings.map((row) => ({ id: row.id, title: row.title, status: row.status, pricePerUnit: row.price_per_unit, createdAt: row.created_at, hidden: row.hidden_at !== null })),
    bookings: bookings.map((row) => ({ id: row.id, title: row.title, status: row.status, totalPrice: row.total_price, role: row.seller_id === userId ? ("seller" as const) : ("buyer" as const), startsAt: row.desired_start_at })),
    reportsAgainst: reportsAgainst.map((row) => ({ id: row.id, targetType: row.target_type, targetId: row.target_id, reason: row.reason, status: row.status, createdAt: row.created_at })),
    reportsBy: reportsBy.map((row) => ({ id: row.id, targetType: row.target_type, targetId: row.target_id, reason: row.reason, status: row.status, createdAt: row.created_at })),
  };
}
export type PersonRecord = NonNullable<Awaited<ReturnType<typeof getPerson>>>;
