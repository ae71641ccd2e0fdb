import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { FilterPanel } from "~/components/filter-panel";
import { GameSelect } from "~/components/filter-select";
import { ListingCard } from "~/components/listing-card";
import { coinSliderSteps } from "~/lib/coin-slider";
import { EXPLORE_PAGE_MAX, LISTING_MINUTES } from "~/lib/constants";
import { activeFilters, compactSearchParams, EXPLORE_DEFAULTS, EXPLORE_MIN_RATINGS, EXPLORE_SORT_LABELS, EXPLORE_SORTS, exploreHref } from "~/lib/explore";
import { parseExploreParams } from "~/lib/explore-query";
import { formatNumber } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { listGames } from "~/models/game.server";
import { searchListings } from "~/models/listing-search.server";

export const meta: MetaFunction = () => pageMeta("さがす", "ゲーム・価格・評価・オンライン状況で、一緒に遊ぶゲーマーのチケットを探せます。");

/**
 * `/explore`: find someone to play with. The filters are the query string (lib/explore.ts), the form a
 * plain GET; with JavaScript a changed choice searches at once.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const requested = parseExploreParams(new URL(request.url).searchParams);
  const viewer = await context.auth.getUser();
  const games = await listGames({ db: context.readDb });
  // A game that does not exist is dropped like any other unusable value.
  const filters = requested.game && !games.some((game) => game.slug === requested.game) ? { ...requested, game: null } : requested;
  const { listings, hasMore } = await searchListings({ db: context.readDb, viewerId: viewer?.id ?? null, filters });
  return { filters, games: games.map(({ slug, name }) => ({ slug, name })), listings, hasMore };
}

const priceSteps = coinSliderSteps();

export default function ExplorePage() {
  const { filters, games, listings, hasMore } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/explore";
  const gameName = games.find((game) => game.slug === filters.game)?.name ?? null;
  const chips = activeFilters(filters, gameName);
  // Kept here, above the form that remounts with each search, so a choice made in the open panel leaves it open.
  const [filtersOpen, setFiltersOpen] = useState(false);
  // With JavaScript the search goes to the canonical URL (no empty fields) and a changed choice searches at once
  // (the keyword waits for Enter or the button); without it the form is a plain GET of every field. この条件で検索
  // pressed while the choice's own search is on its way leaves it be: a second navigation would cancel the first only
  // to ask again, and a cancelled one can reach the error page for a moment (react-router's abort race, ADR 074).
  const search = (form: HTMLFormElement, replace: boolean) => {
    const query = compactSearchParams(new FormData(form)).toString();
    const href = query ? `/explore?${query}` : "/explore";
    if (navigation.state === "loading" && `${navigation.location.pathname}${navigation.location.search}` === href) return;
    navigate(href, { replace, preventScrollReset: true });
  };
  const onChange = (event: React.FormEvent<HTMLFormElement>) => {
    if ((event.target as HTMLElement).getAttribute("name") !== "q") search(event.currentTarget, true);
  };
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    search(event.currentTarget, false);
  };
  // The form's key is the search: going back or following a link shows that search's values in the fields.
  const formKey = exploreHref(filters);
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">一緒に遊ぶ人をさがす</h1>
        {/* On a phone the 絞り込み toggle says as much, and the line would push the results down. */}
        <p className="hidden text-sm text-slate-600 sm:block">ゲーム・価格・評価・オンライン状況で絞り込めます。</p>
      </div>

      <Form key={formKey} method="get" role="search" aria-label="チケットの検索" onChange={onChange} onSubmit={onSubmit} className="flex flex-col gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1 basis-48 sm:basis-64">
            <label htmlFor="explore-q" className="field-label">
              キーワード
            </label>
            <input
              id="explore-q"
              name="q"
              type="search"
              defaultValue={filters.q}
              maxLength={50}
              placeholder="ユーザー名・チケット名・ゲーム名（かなでも）"
              className="field-input w-full"
              enterKeyHint="search"
            />
          </div>
          <button type="submit" className="btn-primary">
            検索
          </button>
        </div>
        <FilterPanel
          id="explore-filters"
          count={chips.filter((chip) => chip.key !== "q").length}
          detail={filters.sort === "recommended" ? undefined : EXPLORE_SORT_LABELS[filters.sort]}
          open={filtersOpen}
          onOpenChange={setFiltersOpen}
          className="flex flex-col gap-4"
        >
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            <GameSelect id="explore-game" games={games} defaultValue={filters.game ?? ""} className="col-span-2 sm:col-span-1 lg:col-span-2" selectClassName="field-input w-full" />
            <PriceSelect id="explore-min-price" name="minPrice" label="価格（下限）" value={filters.minPrice} />
            <PriceSelect id="explore-max-price" name="maxPrice" label="価格（上限）" value={filters.maxPrice} />
            <div>
              <label htmlFor="explore-rating" className="field-label">
                評価
              </label>
              <select id="explore-rating" name="minRating" defaultValue={filters.minRating ?? ""} className="field-input w-full">
                <option value="">指定なし</option>
                {EXPLORE_MIN_RATINGS.map((rating) => (
                  <option key={rating} value={rating}>
                    ★{rating}以上
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="explore-minutes" className="field-label">
                1枠の時間
              </label>
              <select id="explore-minutes" name="minutes" defaultValue={filters.minutes ?? ""} className="field-input w-full">
                <option value="">指定なし</option>
                {LISTING_MINUTES.map((minutes) => (
                  <option key={minutes} value={minutes}>
                    {minutes}分
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="flex flex-wrap items-end justify-between gap-3">
            <label className="inline-flex min-h-11 items-center gap-2 text-sm font-medium">
              <input type="checkbox" name="online" value="1" defaultChecked={filters.online} className="size-5 accent-brand-600" />
              いまオンラインの人だけ
            </label>
            <div>
              <label htmlFor="explore-sort" className="field-label">
                並び順
              </label>
              <select id="explore-sort" name="sort" defaultValue={filters.sort} className="field-input">
                {EXPLORE_SORTS.map((sort) => (
                  <option key={sort} value={sort}>
                    {EXPLORE_SORT_LABELS[sort]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {/* Below the fields on a phone, where the keyword's 検索 is out of sight once the panel is open. */}
          <button type="submit" className="btn-primary w-full sm:hidden">
            この条件で検索
          </button>
        </FilterPanel>
      </Form>

      <section aria-labelledby="explore-results" aria-busy={searching} className={`space-y-4 transition-opacity ${searching ? "opacity-60" : ""}`}>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="explore-results" className="text-lg font-bold">
            検索結果{filters.page > 0 ? `（${filters.page + 1}ページ目）` : ""}
          </h2>
          {chips.length > 0 ? (
            <Link to={exploreHref({ ...EXPLORE_DEFAULTS, sort: filters.sort })} className="text-sm text-brand-700 underline">
              条件をすべてクリア
            </Link>
          ) : null}
        </div>
        {listings.length === 0 ? (
          <div className="space-y-3 rounded-xl bg-white p-6 ring-1 ring-slate-200" data-testid="explore-empty">
            <p className="font-semibold">条件に合うチケットが見つかりませんでした。</p>
            {chips.length > 0 ? (
              <>
                <p className="text-sm text-slate-700">条件をゆるめると見つかるかもしれません:</p>
                <ul className="flex flex-wrap gap-2">
                  {chips.map((chip) => (
                    <li key={chip.key}>
                      <Link to={exploreHref(chip.without)} className="inline-flex min-h-11 items-center rounded-full bg-brand-50 px-3 text-sm text-brand-700 ring-1 ring-brand-200 hover:bg-brand-100">
                        {`${chip.label} を外す`}
                      </Link>
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="text-sm text-slate-700">
                まだチケットがありません。
                <Link to="/mypage/ticket-registration" className="text-brand-700 underline">
                  最初のチケットを出品する
                </Link>
              </p>
            )}
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="検索結果のチケット">
            {listings.map((listing) => (
              <li key={listing.id}>
                <ListingCard listing={listing} />
              </li>
            ))}
          </ul>
        )}
        {filters.page > 0 || hasMore ? (
          <nav aria-label="検索結果のページ" className="flex justify-between text-sm">
            {filters.page > 0 ? (
              <Link to={exploreHref({ ...filters, page: filters.page - 1 })} className="inline-flex min-h-11 items-center text-brand-700 underline">
                前へ
              </Link>
            ) : (
              <span />
            )}
            {hasMore && filters.page < EXPLORE_PAGE_MAX ? (
              <Link to={exploreHref({ ...filters, page: filters.page + 1 })} className="inline-flex min-h-11 items-center text-brand-700 underline">
                次へ
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}

/** One end of the price range: the coin slider's steps (docs/product.md#validation) as a select that works without JavaScript. */
function PriceSelect({ id, name, label, value }: { id: string; name: string; label: string; value: number | null }) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} className="field-input w-full">
        <option value="">指定なし</option>
        {priceSteps.map((step) => (
          <option key={step} value={step}>
            {formatNumber(step)}コイン
          </option>
        ))}
      </select>
    </div>
  );
}
