import { z } from "zod";
import { EXPLORE_PAGE_MAX, EXPLORE_QUERY_MAX, GAME_SLUG_MAX, LISTING_MINUTES } from "./constants";
import { EXPLORE_MIN_RATINGS, EXPLORE_SORTS, type ExploreFilters } from "./explore";

/**
 * Reading explore's query string (lib/explore.ts): a value that does not fit is dropped, not refused.
 * Apart from lib/explore.ts so zod is not in the page's JavaScript (only the loader reads a query string).
 */

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
  page: dropped(z.coerce.number().int().min(0).max(EXPLORE_PAGE_MAX)),
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

