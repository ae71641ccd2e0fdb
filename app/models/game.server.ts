import type { Database } from "~/infra/db/schema";
import { HOME_POPULAR_GAMES_TTL_MS } from "~/lib/constants";

export interface GameSummary {
  slug: string;
  name: string;
  nameKana: string;
  coverUrl: string | null;
}

/** Games in their curated order, for the home page and game pickers. */
export async function listGames({ db, limit = 50 }: { db: Database; limit?: number }): Promise<GameSummary[]> {
  const rows = await db
    .selectFrom("games")
    .select(["slug", "name", "name_kana", "cover_url"])
    .orderBy("sort_order")
    .orderBy("name")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ slug: row.slug, name: row.name, nameKana: row.name_kana, coverUrl: row.cover_url }));
}

export interface Game extends GameSummary {
  id: number;
}

/** A game by its slug (its page), or undefined. */
export async function getGame({ db, slug }: { db: Database; slug: string }): Promise<Game | undefined> {
  const row = await db.selectFrom("games").select(["id", "slug", "name", "name_kana", "cover_url"]).where("slug", "=", slug).executeTakeFirst();
  return row && { id: row.id, slug: row.slug, name: row.name, nameKana: row.name_kana, coverUrl: row.cover_url };
}

export interface PopularGame extends GameSummary {
  /** Active listings of the game: how many chances to play it now. */
  listingsCount: number;
}

/**
 * Games by how many active listings they have (the home page's 人気のゲーム), then in their curated order, counted at
 * most once a minute per process. Each count is read from the partial index of active listings by game
 * (listings_active_idx), not from the table.
 */
export async function listPopularGames({ db, limit, now = new Date() }: { db: Database; limit: number; now?: Date }): Promise<PopularGame[]> {
  // Counting every active listing costs ~10 ms at 200,000 listings on each home view; a minute-old count is as good.
  const cached = popularGamesCache.get(db)?.get(limit);
  if (cached && now.getTime() - cached.at < HOME_POPULAR_GAMES_TTL_MS) return cached.games;
  const games = await countPopularGames(db, limit);
  const byLimit = popularGamesCache.get(db) ?? new Map<number, { at: number; games: PopularGame[] }>();
  byLimit.set(limit, { at: now.getTime(), games });
  popularGamesCache.set(db, byLimit);
  return games;
}

/** Home's popular games, per database (a WeakMap, so a test's closed database takes its entry along). */
const popularGamesCache = new WeakMap<Database, Map<number, { at: number; games: PopularGame[] }>>();

async function countPopularGames(db: Database, limit: number): Promise<PopularGame[]> {
  const rows = await db
    .selectFrom("games as g")
    .select(["g.slug", "g.name", "g.name_kana", "g.cover_url"])
    .select((eb) =>
      eb
        .selectFrom("listings as l")
        .select((inner) => inner.fn.countAll<string>().as("n"))
        .whereRef("l.game_id", "=", "g.id")
        .where("l.status", "=", "active")
        // Hidden listings count too: a number tells nothing of them, and the count stays index-only (listings_active_idx).
        .as("listings_count"),
    )
    .orderBy("listings_count", "desc")
    .orderBy("g.sort_order")
    .orderBy("g.name")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ slug: row.slug, name: row.name, nameKana: row.name_kana, coverUrl: row.cover_url, listingsCount: Number(row.listings_count ?? 0) }));
}
