
/**
 * Explore's filters: they live in the URL (`/explore?q=&game=&online=1&minPrice=&maxPrice=&minRating=
 * &minutes=&sort=&page=`), so the page is a plain GET form without JavaScript and a search can be shared. A value
 * that does not fit (a hand-edited URL, an old link) is dropped rather than refused: the form then shows what was
 * searched. Reading a query string is lib/explore-query.ts (zod stays out of the page's JavaScript).
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

/**
 * A submitted search form's query, canonical: no empty fields, no default order (with JavaScript the form navigates
 * to this instead of posting every field).
 */
export function compactSearchParams(form: FormData) {
  const params = new URLSearchParams();
  for (const [key, value] of form) {
    if (typeof value === "string" && value.trim() !== "" && !(key === "sort" && value === "recommended")) params.append(key, value.trim());
  }
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
