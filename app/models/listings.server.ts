import { sql, type AliasedRawBuilder, type SqlBool } from "kysely";
import type { Database, DB, ListingStatus } from "~/infra/db/schema";
import { EXPLORE_PAGE_SIZE, EXPLORE_QUERY_WORDS_MAX, LISTINGS_PER_SELLER_MAX, ONLINE_WINDOW_MS } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import type { ExploreFilters } from "~/lib/explore";
import type { ListingInput } from "~/lib/schemas";
import { NOBODY, onlineFor } from "./presence.server";
import { toRating, type Rating } from "./reviews.server";

/**
 * Listings (PRODUCT §4): the game sessions a seller offers (the screens call them チケット), each booked many times. Anyone may read active and paused ones; an
 * archived listing, or one the operators hid (PRODUCT §10), is the seller's alone. Only the seller changes a listing.
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
  /** Hidden by the operators (PRODUCT §10): only its seller is shown it, marked 「運営により非表示」; nobody can book it. */
  hidden: boolean;
  game: { slug: string; name: string };
  seller: { uid: string; displayName: string; avatar: string | null; online: boolean; rating: Rating };
  createdAt: string;
  updatedAt: string;
}

/** Where listingsQuery reads listings from: the table, or a subquery of its rows (searchListings' keyword prefix). */
type ListingsSource = AliasedRawBuilder<DB["listings"], "l">;

function listingsQuery(db: Database, viewerId?: string | null, source?: ListingsSource) {
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

function toListing(row: ListingRow): Listing {
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

/**
 * Explore's search (issue 16, ADR 023): active listings matching the filters, a page at a time, in the chosen order.
 * Listings of a seller who blocked the viewer, or whom the viewer blocked, are left out, and so are hidden ones (for
 * their seller too: a search shows what buyers find). Every order is one of the partial indexes of migration 0012
 * read from the top; "recommended" is the sellers online now (few, found through the presence index) by rating, then
 * everyone else by rating, so it needs no sort of the whole table either. `hidden_at is null` is a filter on the rows
 * the index returns (hiding is rare, so a page still reads about a page of rows).
 */
export async function searchListings({
  db,
  viewerId,
  filters,
  now = new Date(),
  pageSize = EXPLORE_PAGE_SIZE,
}: {
  db: Database;
  viewerId: string | null;
  filters: Omit<ExploreFilters, "page"> & { page?: number };
  now?: Date;
  pageSize?: number;
}) {
  const offset = (filters.page ?? 0) * pageSize;
  const onlineSince = new Date(now.getTime() - ONLINE_WINDOW_MS);
  // Online now: the listing's copy of its seller's presence flag (migration 0020), whose partial index yields the
  // online sellers' listings in the rating order, and the seller's last heartbeat (a flag not yet flipped back). The
  // heartbeat is looked up per listing, an expression without statistics: as a join, the planner could start from the
  // heartbeats and read every online seller's listings for one page (18,000 rows and 320 ms at 1M users, against 1 ms
  // from the index; issue 37).
  const online = sql<SqlBool>`(l.seller_online and coalesce((select p.last_seen_at from user_presence p where p.user_id = l.seller_id), '-infinity') > ${onlineSince})`;
  // The filters, on the table or on a keyword search's prefix of it (see `page`).
  const matchingFrom = (source?: ListingsSource) => {
    let matching = listingsQuery(db, viewerId, source).where("l.status", "=", "active").where("l.hidden_at", "is", null);
    if (viewerId) {
      // The viewer's blocks both ways, read once (a hashed subplan), not probed per listing.
      matching = matching.where(
        "l.seller_id",
        "not in",
        db
          .selectFrom("user_blocks")
          .select("blocked_id as id")
          .where("blocker_id", "=", viewerId)
          .unionAll(db.selectFrom("user_blocks").select("blocker_id as id").where("blocked_id", "=", viewerId)),
      );
    }
    if (filters.game) matching = matching.where("g.slug", "=", filters.game);
    if (filters.minPrice !== null) matching = matching.where("l.price_per_unit", ">=", filters.minPrice);
    if (filters.maxPrice !== null) matching = matching.where("l.price_per_unit", "<=", filters.maxPrice);
    if (filters.minutes !== null) matching = matching.where("l.minutes_per_unit", "=", filters.minutes);
    if (filters.minRating !== null) matching = matching.where(sql`l.seller_rating`, ">=", filters.minRating);
    for (const word of filters.q.split(" ").filter(Boolean).slice(0, EXPLORE_QUERY_WORDS_MAX)) {
      // Its two-character pieces narrow through the GIN index; the LIKE then checks the word itself, in order.
      matching = matching
        .where(sql<SqlBool>`l.search_grams @> gm_bigrams(gm_search_text(${word}))`)
        .where(sql<SqlBool>`l.search_text like '%' || replace(replace(replace(gm_search_text(${word}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`);
    }
    if (filters.online) matching = matching.where(online);
    return matching;
  };
  type Matching = ReturnType<typeof matchingFrom>;

  const byRating = <Q extends Matching>(query: Q) =>
    query.orderBy(sql`l.seller_rating desc nulls last`).orderBy("l.created_at", "desc").orderBy("l.id");
  // A keyword's bigrams are estimated as independent of each other, so a common word (a game's name, in a quarter of
  // all listings) looks rare to the planner, which then fetches and sorts every match from the GIN index (about a
  // second for 50,000). So a keyword search first filters the top listings of the order, read from its index: a
  // prefix of the order, filtered, is a prefix of the filtered order, so a full page from it is the answer. A rarer
  // word (under 1 % of listings) finds less than a page there and goes to the GIN index, which then returns few rows.
  const prefixOrder =
    filters.sort === "price"
      ? sql`price_per_unit, created_at desc, id`
      : filters.sort === "newest"
        ? sql`created_at desc, id`
        : sql`seller_rating desc nulls last, created_at desc, id`;
  const hasWords = filters.q.trim() !== "";
  // The online sellers' listings, fenced (OFFSET 0) so that a keyword's filter runs on them rather than through the
  // GIN index, which for a common word would fetch a quarter of all listings to keep the 1 % that are online.
  const onlineListings = sql<DB["listings"]>`(select * from listings where status = 'active' and seller_online offset 0)`.as("l");
  /**
   * Rows `skip` to `skip + take` of `query`. With keywords, first from a prefix of the order (of the online sellers'
   * listings when `online`); when that is not a full page, from all of them: the GIN index, or the fenced online ones.
   */
  const page = async (query: (source?: ListingsSource) => Matching, skip: number, take: number, { online = filters.online } = {}) => {
    if (take <= 0) return [];
    if (hasWords) {
      const prefix = sql<DB["listings"]>`(select * from listings where status = 'active' ${sql.raw(online ? "and seller_online " : "")}order by ${prefixOrder} limit ${
        KEYWORD_PREFIX_PER_ROW * (skip + take)
      })`;
      const rows = await query(prefix.as("l")).offset(skip).limit(take).execute();
      if (rows.length === take) return rows.map(toListing);
    }
    return (await query(hasWords && online ? onlineListings : undefined).offset(skip).limit(take).execute()).map(toListing);
  };

  let rows: Listing[];
  if (filters.sort === "recommended" && !filters.online) {
    // How many are online before this page matters only past the first page (where the rest of the order starts):
    // page 0 skips the count, and it stops counting at the offset.
    const { n } =
      offset === 0
        ? { n: 0 }
        : await db
            .selectFrom(
              matchingFrom(hasWords ? onlineListings : undefined)
                .where(online)
                .clearSelect()
                .select(sql`1`.as("one"))
                .limit(offset)
                .as("m"),
            )
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .executeTakeFirstOrThrow();
    const onlineCount = Number(n);
    // Those online come best first from their own index (migration 0020).
    const first = await page((source) => byRating(matchingFrom(source).where(online)), offset, pageSize + 1, { online: true });
    const rest = await page(
      (source) => byRating(matchingFrom(source).where(sql<SqlBool>`not ${online}`)),
      Math.max(0, offset - onlineCount),
      pageSize + 1 - first.length,
      { online: false },
    );
    rows = [...first, ...rest];
  } else {
    const ordered = (query: Matching) =>
      filters.sort === "price"
        ? query.orderBy("l.price_per_unit").orderBy("l.created_at", "desc").orderBy("l.id")
        : filters.sort === "newest"
          ? query.orderBy("l.created_at", "desc").orderBy("l.id")
          : byRating(query);
    rows = await page((source) => ordered(matchingFrom(source)), offset, pageSize + 1);
  }
  return { listings: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** A keyword search first looks through this many listings of the order per row it needs (a word in 1 % of them). */
const KEYWORD_PREFIX_PER_ROW = 100;
