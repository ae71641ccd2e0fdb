import { sql, type SqlBool } from "kysely";
import type { Database, DB } from "~/infra/db/tables";
import { EXPLORE_PAGE_SIZE, EXPLORE_QUERY_WORDS_MAX, ONLINE_WINDOW_MS } from "~/lib/constants";
import type { ExploreFilters } from "~/lib/explore";
import { listingsQuery, toListing, type Listing, type ListingsSource } from "./listings.server";

/**
 * Explore's search (ADR 023): active listings matching the filters, a page at a time, in the chosen order.
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
  // from the index).
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
