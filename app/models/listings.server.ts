import { sql, type AliasedRawBuilder } from "kysely";
import type { Database, DB, ListingStatus } from "~/infra/db/tables";
import { LISTINGS_PER_SELLER_MAX } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import type { ListingInput } from "~/lib/validation/listing";
import { NOBODY, onlineFor } from "./presence.server";
import { toRating, type Rating } from "./reviews.server";

/**
 * Listings (ADR 056): the game sessions a seller offers (the screens call them チケット), each booked many times.
 * Anyone may read active and paused ones; an archived listing, or one the operators hid (ADR 030), is the
 * seller's alone. Only the seller changes a listing. Explore's search of them: listing-search.server.ts.
 */

/** A listing rule was broken; routes answer its status with its Japanese message (listingErrorMessage). */
export class ListingError extends DomainError<400 | 404 | 409 | 422, "unknown_game" | "profile_not_found" | "too_many_listings" | "listing_archived" | "listing_not_found"> {}

export interface Listing {
  id: string;
  title: string;
  description: string;
  pricePerUnit: number;
  minutesPerUnit: number;
  maxUnits: number;
  status: ListingStatus;
  /** Hidden by the operators (docs/product.md#trust-and-safety): only its seller is shown it, marked 「運営により非表示」; nobody can book it. */
  hidden: boolean;
  game: { slug: string; name: string };
  seller: { uid: string; displayName: string; avatar: string | null; online: boolean; rating: Rating };
  createdAt: string;
  updatedAt: string;
}

/** Where listingsQuery reads listings from: the table, or a subquery of its rows (searchListings' keyword prefix). */
export type ListingsSource = AliasedRawBuilder<DB["listings"], "l">;

/** Listings with their game and seller, as a viewer sees them (the seller online or not). */
export function listingsQuery(db: Database, viewerId?: string | null, source?: ListingsSource) {
  return (source ? db.selectFrom(source) : db.selectFrom("listings as l"))
    .innerJoin("games as g", "g.id", "l.game_id")
    .innerJoin("users as u", "u.id", "l.seller_id")
    .select([
      "l.id",
      "l.title",
      "l.description",
      "l.price_per_unit",
      "l.minutes_per_unit",
      "l.max_units",
      "l.status",
      "l.hidden_at",
      "l.created_at",
      "l.updated_at",
      "g.slug as game_slug",
      "g.name as game_name",
      "u.id as seller_id",
      "u.display_name",
      "u.avatar_url",
      onlineFor(viewerId ?? null).as("online"),
      // The seller's rating, kept on the listing by a trigger on reviews (migration 0012).
      "l.seller_rating as rating_average",
      "l.seller_rating_count as rating_count",
    ]);
}
type ListingRow = Awaited<ReturnType<ReturnType<typeof listingsQuery>["executeTakeFirstOrThrow"]>>;

export function toListing(row: ListingRow): Listing {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    pricePerUnit: row.price_per_unit,
    minutesPerUnit: row.minutes_per_unit,
    maxUnits: row.max_units,
    status: row.status,
    hidden: row.hidden_at !== null,
    game: { slug: row.game_slug, name: row.game_name },
    seller: {
      uid: row.seller_id,
      displayName: row.display_name,
      avatar: row.avatar_url,
      online: row.online,
      rating: toRating({ average: row.rating_average, count: row.rating_count }),
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function gameIdOf(db: Database, slug: string) {
  const game = await db.selectFrom("games").select("id").where("slug", "=", slug).executeTakeFirst();
  if (!game) throw new ListingError(400, "unknown_game");
  return game.id;
}

const columnsOf = (input: Partial<ListingInput>) => ({
  ...(input.title !== undefined ? { title: input.title } : {}),
  ...(input.description !== undefined ? { description: input.description } : {}),
  ...(input.pricePerUnit !== undefined ? { price_per_unit: input.pricePerUnit } : {}),
  ...(input.minutesPerUnit !== undefined ? { minutes_per_unit: input.minutesPerUnit } : {}),
  ...(input.maxUnits !== undefined ? { max_units: input.maxUnits } : {}),
});

/** Registers a listing for the seller (active at once). */
export async function createListing({ db, sellerId, input }: { db: Database; sellerId: string; input: ListingInput }) {
  const gameId = await gameIdOf(db, input.gameSlug);
  const id = await db.transaction().execute(async (trx) => {
    // The seller's row serialises two registrations at once, so the cap holds.
    const seller = await trx.selectFrom("users").select("id").where("id", "=", sellerId).forUpdate().executeTakeFirst();
    if (!seller) throw new ListingError(404, "profile_not_found");
    const { n } = await trx
      .selectFrom("listings")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("seller_id", "=", sellerId)
      .where("status", "<>", "archived")
      .executeTakeFirstOrThrow();
    if (Number(n) >= LISTINGS_PER_SELLER_MAX) throw new ListingError(422, "too_many_listings");
    const row = await trx
      .insertInto("listings")
      .values({ seller_id: sellerId, game_id: gameId, ...columnsOf(input) } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return (await getListing({ db, listingId: id, viewerId: sellerId }))!;
}

/**
 * Changes the seller's listing: its fields and/or its status. An archived listing stays archived (it is gone for
 * buyers; bookings made from it keep their copy). Someone else's listing is not found.
 */
export async function updateListing({
  db,
  sellerId,
  listingId,
  input,
}: {
  db: Database;
  sellerId: string;
  listingId: string;
  input: Partial<ListingInput> & { status?: ListingStatus };
}) {
  const gameId = input.gameSlug !== undefined ? await gameIdOf(db, input.gameSlug) : undefined;
  const updated = await db
    .updateTable("listings")
    .set({
      ...columnsOf(input),
      ...(gameId !== undefined ? { game_id: gameId } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where("id", "=", listingId)
    .where("seller_id", "=", sellerId)
    .where("status", "<>", "archived")
    .returning("id")
    .executeTakeFirst();
  if (!updated) {
    const archived = await db.selectFrom("listings").select("id").where("id", "=", listingId).where("seller_id", "=", sellerId).executeTakeFirst();
    throw archived ? new ListingError(409, "listing_archived") : new ListingError(404, "listing_not_found");
  }
  return (await getListing({ db, listingId, viewerId: sellerId }))!;
}

/** A listing as a viewer may see it: archived and hidden ones only by their seller. */
export async function getListing({ db, listingId, viewerId }: { db: Database; listingId: string; viewerId?: string | null }) {
  const row = await listingsQuery(db, viewerId).where("l.id", "=", listingId).executeTakeFirst();
  if (!row || ((row.status === "archived" || row.hidden_at !== null) && row.seller_id !== viewerId)) return null;
  return toListing(row);
}

/**
 * Listings newest first: active ones of a game or a seller for everyone (hidden ones for their seller only); with
 * `own`, all of the seller's that are not archived (their registration page).
 */
export async function listListings({
  db,
  gameSlug,
  sellerId,
  own = false,
  viewerId,
  limit,
  offset,
}: {
  db: Database;
  viewerId?: string | null;
  gameSlug?: string;
  sellerId?: string;
  own?: boolean;
  limit: number;
  offset: number;
}) {
  let query = listingsQuery(db, viewerId)
    .orderBy("l.created_at", "desc")
    .orderBy("l.id")
    .limit(limit + 1)
    .offset(offset);
  query = own ? query.where("l.status", "<>", "archived") : query.where("l.status", "=", "active");
  query = query.where((eb) => eb.or([eb("l.hidden_at", "is", null), eb("l.seller_id", "=", viewerId ?? NOBODY)]));
  if (gameSlug) query = query.where("g.slug", "=", gameSlug);
  if (sellerId) query = query.where("l.seller_id", "=", sellerId);
  const rows = await query.execute();
  return { listings: rows.slice(0, limit).map(toListing), hasMore: rows.length > limit };
}
