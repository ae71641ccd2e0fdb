import { z } from "zod";
import { EXPLORE_QUERY_MAX, GAME_SLUG_MAX, LISTING_MINUTES, PAGE_NUMBER_MAX } from "./constants";

/**
 * Explore's filters (issue 16): they live in the URL (`/explore?q=&game=&online=1&minPrice=&maxPrice=&minRating=
 * &minutes=&sort=&page=`), so the page is a plain GET form without JavaScript and a search can be shared. A value
 * that does not fit (a hand-edited URL, an old link) is dropped rather than refused: the form then shows what was
 * searched.
 */

export const EXPLORE_SORTS = ["recommended", "rating", "price", "newest"] as const;
export type ExploreSort = (typeof EXPLORE_SORTS)[number];
export const EXPLORE_SORT_LABELS: Record<ExploreSort, string> = {
  recommended: "おすすめ順",
  rating: "評価が高い順",
  price: "価格が安い順",
  newest: "新着順",
};
/** The rating filter's choices: at least this many stars. */
export const EXPLORE_MIN_RATINGS = [3, 3.5, 4, 4.5] as const;

export interface ExploreFilters {
  /** Keywords (display name, listing title, game name or its kana); empty: none. */
  q: string;
  game: string | null;
  online: boolean;
  minPrice: number | null;
  maxPrice: number | null;
  minRating: number | null;
  minutes: number | null;
  sort: ExploreSort;
  /** 0 is the first page. */
  page: number;
}

/** No filter, the recommended order, the first page. */
export const EXPLORE_DEFAULTS: ExploreFilters = {
  q: "",
  game: null,
  online: false,
  minPrice: null,
  maxPrice: null,
  minRating: null,
  minutes: null,
  sort: "recommended",
  page: 0,
};

/** An empty field (the form's 指定なし) is no filter; a value that does not fit is dropped. */
const dropped = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((value) => (value === "" ? undefined : value), schema.optional()).catch(undefined);
/** Control characters (PostgreSQL text cannot hold U+0000) and lone surrogates are spaces in a keyword. */
const UNSEARCHABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
const price = dropped(z.coerce.number().int().min(0).max(1_000_000));

const exploreQuerySchema = z.object({
  q: dropped(z.string().transform((value) => [...value.replace(UNSEARCHABLE, " ").replace(/\s+/gu, " ").trim()].slice(0, EXPLORE_QUERY_MAX).join("").trim())),
  game: dropped(z.string().max(GAME_SLUG_MAX).regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)),
  online: dropped(z.literal("1")),
  minPrice: price,
  maxPrice: price,
  minRating: dropped(z.coerce.number().refine((value) => (EXPLORE_MIN_RATINGS as readonly number[]).includes(value))),
  minutes: dropped(z.coerce.number().refine((value) => (LISTING_MINUTES as readonly number[]).includes(value))),
  sort: dropped(z.enum(EXPLORE_SORTS)),
  page: dropped(z.coerce.number().int().min(0).max(PAGE_NUMBER_MAX)),
});

/** The filters a query string asks for; absent and unusable values are the defaults. */
export function parseExploreParams(params: URLSearchParams): ExploreFilters {
  // Only the first of a repeated key counts (a form never repeats one).
  const first = Object.fromEntries([...new Set(params.keys())].map((key) => [key, params.get(key)!]));
  const parsed = exploreQuerySchema.parse(first);
  let [minPrice, maxPrice] = [parsed.minPrice ?? null, parsed.maxPrice ?? null];
  // A range given the wrong way round is read the right way round.
  if (minPrice !== null && maxPrice !== null && minPrice > maxPrice) [minPrice, maxPrice] = [maxPrice, minPrice];
  return {
    q: parsed.q ?? "",
    game: parsed.game ?? null,
    online: parsed.online === "1",
    minPrice,
    maxPrice,
    minRating: parsed.minRating ?? null,
    minutes: parsed.minutes ?? null,
    sort: parsed.sort ?? "recommended",
    page: parsed.page ?? 0,
  };
}

/** The query string of these filters, defaults left out (the canonical, shareable form). */
export function exploreSearchParams(filters: ExploreFilters) {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.game) params.set("game", filters.game);
  if (filters.online) params.set("online", "1");
  if (filters.minPrice !== null) params.set("minPrice", String(filters.minPrice));
  if (filters.maxPrice !== null) params.set("maxPrice", String(filters.maxPrice));
  if (filters.minRating !== null) params.set("minRating", String(filters.minRating));
  if (filters.minutes !== null) params.set("minutes", String(filters.minutes));
  if (filters.sort !== "recommended") params.set("sort", filters.sort);
  if (filters.page > 0) params.set("page", String(filters.page));
  return params;
}

/** `/explore` with these filters. */
export function exploreHref(filters: ExploreFilters) {
  const query = exploreSearchParams(filters).toString();
  return query ? `/explore?${query}` : "/explore";
}

/** The filters in use, each with its label and the filters without it (the empty state's "loosen this" links). */
export function activeFilters(filters: ExploreFilters, gameName: string | null) {
  const base = { ...filters, page: 0 };
  const chips: { key: string; label: string; without: ExploreFilters }[] = [];
  if (filters.q) chips.push({ key: "q", label: `キーワード「${filters.q}」`, without: { ...base, q: "" } });
  if (filters.game) chips.push({ key: "game", label: `ゲーム: ${gameName ?? filters.game}`, without: { ...base, game: null } });
  if (filters.online) chips.push({ key: "online", label: "オンラインの人だけ", without: { ...base, online: false } });
  if (filters.minPrice !== null || filters.maxPrice !== null) {
    const range = `${filters.minPrice !== null ? filters.minPrice.toLocaleString("ja-JP") : ""}〜${filters.maxPrice !== null ? filters.maxPrice.toLocaleString("ja-JP") : ""}`;
    chips.push({ key: "price", label: `価格: ${range}コイン`, without: { ...base, minPrice: null, maxPrice: null } });
  }
  if (filters.minRating !== null) chips.push({ key: "minRating", label: `評価: ★${filters.minRating}以上`, without: { ...base, minRating: null } });
  if (filters.minutes !== null) chips.push({ key: "minutes", label: `1枠: ${filters.minutes}分`, without: { ...base, minutes: null } });
  return chips;
}
