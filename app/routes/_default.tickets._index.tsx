import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { FilterPanel } from "~/components/filter-panel";
import { GameSelect } from "~/components/filter-select";
import { ListingCard } from "~/components/listing-card";
import { GAME_SLUG_MAX, LISTINGS_PAGE_SIZE, PAGE_NUMBER_MAX } from "~/lib/constants";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { singleLineText, uuidParam } from "~/lib/validation/fields";
import { listGames } from "~/models/game.server";
import { listListings } from "~/models/listings.server";

export const meta: MetaFunction = () => pageMeta("チケット一覧", "GamerMatchで購入できるゲームプレイのチケット一覧です。ゲームで絞り込めます。");

const querySchema = z.object({
  game: singleLineText(GAME_SLUG_MAX, { required: false }).optional(),
  /** One seller's listings: where a seller's name leads until profiles exist. */
  seller: uuidParam.optional(),
  page: z.coerce.number().int().min(0).max(PAGE_NUMBER_MAX).optional().default(0),
});

/** Every active listing, newest first, by game: until explore exists, how buyers find a seller. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { game, seller, page } = parseQuery(querySchema, request);
  const viewer = await context.auth.getUser();
  const [games, { listings, hasMore }] = await Promise.all([
    listGames({ db: context.db }),
    listListings({ db: context.db, gameSlug: game || undefined, sellerId: seller, viewerId: viewer?.id, limit: LISTINGS_PAGE_SIZE, offset: page * LISTINGS_PAGE_SIZE }),
  ]);
  return { games, listings, hasMore, game: game ?? "", seller: seller ?? null, page, signedIn: !!viewer };
}

export default function ListingsPage() {
  const { games, listings, hasMore, game, seller, page, signedIn } = useLoaderData<typeof loader>();
  const pageLink = (to: number) => `?${new URLSearchParams({ ...(game ? { game } : {}), ...(seller ? { seller } : {}), ...(to ? { page: String(to) } : {}) })}`;
  const sellerName = seller ? listings[0]?.seller.displayName : null;
  return (
    <section aria-labelledby="tickets-title" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="tickets-title" className="text-2xl font-bold">
            {seller ? (sellerName ? `${sellerName}さんのチケット` : "この出品者のチケット") : "チケット一覧"}
          </h1>
          <p className="mt-1 text-sm text-slate-600">一緒に遊びたい相手のチケットを選んで、開始希望日時を決めて購入します。</p>
        </div>
        <Link to={signedIn ? "/mypage/ticket-registration" : "/signup"} className="btn-secondary min-h-9 px-3 text-sm">
          チケットを出品する
        </Link>
      </div>
      <Form method="get">
        {seller ? <input type="hidden" name="seller" value={seller} /> : null}
        {/* The seller is the page's own subject (its heading), not a choice in the panel: only the game counts. */}
        <FilterPanel id="tickets-filters" count={game ? 1 : 0} className="flex flex-col gap-3 max-sm:mt-3 sm:flex-row sm:flex-wrap sm:items-end sm:gap-2">
          <GameSelect id="game-filter" games={games} defaultValue={game} />
          <button type="submit" className="btn-primary min-h-10">
            絞り込む
          </button>
        </FilterPanel>
      </Form>
      {listings.length === 0 ? (
        <div className="rounded-xl bg-white p-8 text-center ring-1 ring-slate-200">
          <p className="font-semibold">{game || seller ? "条件に合うチケットはまだありません。" : "まだチケットがありません。"}</p>
          <p className="mt-2 text-sm text-slate-600">
            {game || seller ? (
              <Link to="/tickets" className="text-brand-700 underline">
                すべてのゲームのチケットを見る
              </Link>
            ) : (
              "最初の出品者になってみませんか？"
            )}
          </p>
        </div>
      ) : (
        <ul aria-label="チケット一覧" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {listings.map((listing) => (
            <li key={listing.id}>
              <ListingCard listing={listing} />
            </li>
          ))}
        </ul>
      )}
      <nav aria-label="ページ送り" className="flex justify-between text-sm">
        {page > 0 ? (
          <Link to={pageLink(page - 1)} className="text-brand-700 underline">
            前のページ
          </Link>
        ) : (
          <span />
        )}
        {hasMore ? (
          <Link to={pageLink(page + 1)} className="text-brand-700 underline">
            次のページ
          </Link>
        ) : null}
      </nav>
    </section>
  );
}
