import type { Database } from "~/infra/db/tables";

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
 * Games by how many active listings they have (the home page's 人気のゲーム), then in their curated order. The count is
 * kept on each game by triggers on listings (migration 0027): hidden listings count too, since a number tells
 * nothing of them.
 */
export async function listPopularGames({ db, limit }: { db: Database; limit: number }): Promise<PopularGame[]> {
  const rows = await db
    .selectFrom("games")
    .select(["slug", "name", "name_kana", "cover_url", "active_listings_count"])
    .orderBy("active_listings_count", "desc")
    .orderBy("sort_order")
    .orderBy("name")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ slug: row.slug, name: row.name, nameKana: row.name_kana, coverUrl: row.cover_url, listingsCount: row.active_listings_count }));
}
