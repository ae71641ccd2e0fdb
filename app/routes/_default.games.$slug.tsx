import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GameCover } from "~/components/game-cover";
import { ListingCard } from "~/components/listing-card";
import { PostCards } from "~/components/post-card";
import { GAME_PAGE_EVENTS_MAX, GAME_PAGE_POSTS_MAX, GAME_PAGE_SELLERS_MAX } from "~/lib/constants";
import { EXPLORE_DEFAULTS } from "~/lib/explore";
import { formatNumber } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { formatDateTime } from "~/lib/time";
import { slugParamsSchema } from "~/lib/validation/fields";
import { listCommunities } from "~/models/communities.server";
import { listEvents } from "~/models/events.server";
import { getGame } from "~/models/game.server";
import { searchListings } from "~/models/listing-search.server";
import { listPosts } from "~/models/posts.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.game.name ?? "ゲーム", data ? `${data.game.name}の出品者、コミュニティ、投稿` : undefined);

/** `/games/{slug}`: the game's cover, its sellers (online first), its communities and recent posts about it. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { slug } = parseParams(slugParamsSchema, params, request);
  const game = await getGame({ db: context.readDb, slug });
  if (!game) throw new Response(null, { status: 404, statusText: "Not Found" });
  const viewer = await context.auth.getUser();
  const viewerId = viewer?.id ?? null;
  const [{ listings }, communities, posts, { events }] = await Promise.all([
    // Online sellers first, then by rating: explore's recommended order within the game.
    searchListings({ db: context.readDb, viewerId, filters: { ...EXPLORE_DEFAULTS, game: slug }, pageSize: GAME_PAGE_SELLERS_MAX }),
    listCommunities({ db: context.readDb, gameSlug: slug }),
    listPosts({ db: context.readDb, viewerId, gameId: game.id, limit: GAME_PAGE_POSTS_MAX }),
    listEvents({ db: context.readDb, now: new Date(), when: "upcoming", gameSlug: slug, limit: GAME_PAGE_EVENTS_MAX }),
  ]);
  return { game, sellers: listings, communities, events, posts: posts.posts, viewerId };
}

export default function GamePage() {
  const { game, sellers, communities, events, posts, viewerId } = useLoaderData<typeof loader>();
  const here = `/games/${game.slug}`;
  return (
    <article aria-labelledby="game-title" className="space-y-10">
      <header className="space-y-4">
        <GameCover game={game} size="hero" eager />
        <div>
          <h1 id="game-title" className="text-2xl font-bold">
            {game.name}
          </h1>
          <p className="text-sm text-slate-600">{game.nameKana}</p>
        </div>
        <p>
          <Link to="/games" className="text-sm text-brand-700 underline">
            ゲーム一覧に戻る
          </Link>
        </p>
      </header>

      <section aria-labelledby="game-sellers" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="game-sellers" className="text-xl font-bold">
            {game.name}のチケット
          </h2>
          <Link to={`/explore?${new URLSearchParams({ game: game.slug })}`} className="text-sm text-brand-700 underline">
            すべて見る
          </Link>
        </div>
        {sellers.length === 0 ? (
          <p className="rounded-xl bg-white p-6 text-slate-600 ring-1 ring-slate-200">まだこのゲームのチケットはありません。</p>
        ) : (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="チケット">
            {sellers.map((listing) => (
              <li key={listing.id}>
                <ListingCard listing={listing} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="game-communities" className="space-y-4">
        <h2 id="game-communities" className="text-xl font-bold">
          コミュニティ
        </h2>
        {communities.length === 0 ? (
          <p className="rounded-xl bg-white p-6 text-slate-600 ring-1 ring-slate-200">まだこのゲームのコミュニティはありません。</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2" aria-label="コミュニティ">
            {communities.map((community) => (
              <li key={community.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <h3 className="font-bold">
                  <Link to={`/community/${community.slug}`} className="text-brand-700 underline-offset-2 hover:underline">
                    {community.name}
                  </Link>
                </h3>
                <p className="mt-1 line-clamp-2 text-sm text-slate-700">{community.description}</p>
                <p className="mt-2 text-xs text-slate-600">メンバー {formatNumber(community.membersCount)}人</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="game-events" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="game-events" className="text-xl font-bold">
            開催予定のイベント
          </h2>
          <Link to={`/events?${new URLSearchParams({ game: game.slug })}`} className="text-sm text-brand-700 underline">
            すべて見る
          </Link>
        </div>
        {events.length === 0 ? (
          <p className="rounded-xl bg-white p-6 text-slate-600 ring-1 ring-slate-200">開催予定のイベントはありません。</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2" aria-label="イベント">
            {events.map((event) => (
              <li key={event.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <h3 className="font-bold">
                  <Link to={`/events/${event.id}`} className="text-brand-700 underline-offset-2 hover:underline">
                    {event.title}
                  </Link>
                </h3>
                <p className="mt-1 text-sm text-slate-700">
                  <time dateTime={event.startsAt}>{formatDateTime(event.startsAt)}</time>〜 ・ 残り{formatNumber(event.seatsLeft)}席
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="game-posts" className="space-y-4">
        <h2 id="game-posts" className="text-xl font-bold">
          最近の投稿
        </h2>
        {posts.length === 0 ? (
          <p className="rounded-xl bg-white p-6 text-slate-600 ring-1 ring-slate-200">まだこのゲームのコミュニティへの投稿はありません。</p>
        ) : (
          <PostCards posts={posts} viewerId={viewerId} redirectTo={here} />
        )}
      </section>
    </article>
  );
}
