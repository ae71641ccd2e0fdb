import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GameCover } from "~/components/game-cover";
import { HiddenBadge } from "~/components/moderation-slots";
import { Avatar } from "~/components/presence";
import { RatingSummary } from "~/components/star-rating";
import { swallowed } from "~/http/log.server";
import { HOME_EVENTS_MAX, HOME_GAMES_MAX, HOME_ONLINE_SELLERS_MAX, HOME_POSTS_MAX, PRODUCT_NAME } from "~/lib/constants";
import { EXPLORE_DEFAULTS } from "~/lib/explore";
import { formatNumber } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { formatDateTime, formatRelative, isoString } from "~/lib/time";
import { listUpcoming } from "~/models/bookings/queries.server";
import { countUnread } from "~/models/chat.server";
import { listEvents } from "~/models/events.server";
import { listPopularGames } from "~/models/game.server";
import { searchListings } from "~/models/listing-search.server";
import { countUnreadNotifications } from "~/models/notification.server";
import { listPosts } from "~/models/posts.server";

export const meta: MetaFunction = () =>
  pageMeta("ホーム", "一緒に遊ぶゲーマーが見つかる。チケットの予約・販売、チャット、レビューができるゲーマーマッチングプラットフォーム。");

/** How long a post's excerpt on home is (the rest is on the author's page). */
const EXCERPT_MAX = 80;

/**
 * `/`: what a visitor needs to start playing today, in plain HTML: who sells and is online now, popular
 * games, upcoming events and the newest posts; for a signed-in user their next session and unread counts first.
 * The loader sends only what is drawn (the page's HTML, data included, stays small) and formats times here.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  // Public reads: the replica when there is one (ADR 040).
  const db = context.readDb;
  const viewer = await context.auth.getUser();
  const viewerId = viewer?.id ?? null;
  const now = new Date();
  const [online, games, { events }, { posts }, mine] = await Promise.all([
    // Twice as many as shown, so one seller with several listings still leaves a full row of people.
    searchListings({ db, viewerId, filters: { ...EXPLORE_DEFAULTS, online: true, sort: "rating" }, pageSize: HOME_ONLINE_SELLERS_MAX * 2, now }),
    listPopularGames({ db, limit: HOME_GAMES_MAX }),
    listEvents({ db, now, when: "upcoming", limit: HOME_EVENTS_MAX }),
    listPosts({ db, viewerId, limit: HOME_POSTS_MAX, now }),
    viewerId ? signedInSummary(context, viewerId, now) : null,
  ]);
  const sellers = [...new Map(online.listings.map((listing) => [listing.seller.uid, listing])).values()].slice(0, HOME_ONLINE_SELLERS_MAX);
  return {
    mine,
    sellers: sellers.map((listing) => ({
      listingId: listing.id,
      title: listing.title,
      game: listing.game.name,
      price: listing.pricePerUnit,
      minutes: listing.minutesPerUnit,
      seller: listing.seller,
    })),
    games,
    events: events.map((event) => ({
      id: event.id,
      title: event.title,
      game: event.game.name,
      startsAt: isoString(event.startsAt),
      startsAtLabel: formatDateTime(event.startsAt),
      seatsLeft: event.seatsLeft,
    })),
    posts: posts.map((post) => ({
      id: post.id,
      author: post.author,
      excerpt: post.locked || !post.content ? null : post.content.length > EXCERPT_MAX ? `${post.content.slice(0, EXCERPT_MAX)}…` : post.content,
      locked: post.locked,
      hidden: post.hidden,
      hasImage: post.hasImage,
      createdAt: post.createdAt,
      createdAtLabel: formatRelative(post.createdAt, now),
    })),
  };
}

/** The signed-in user's next session and unread counts. */
async function signedInSummary(context: LoaderFunctionArgs["context"], userId: string, now: Date) {
  const [upcoming, unreadMessages, unreadNotifications] = await Promise.all([
    listUpcoming({ db: context.db, userId, now }),
    // Counts that cannot be read are zero, as in the header (docs/product.md#errors): home still renders.
    countUnread({ db: context.db, userId }).catch(swallowed("unread messages", 0)),
    countUnreadNotifications({ db: context.db, userId }).catch(swallowed("unread notifications", 0)),
  ]);
  const next = upcoming[0];
  return {
    unreadMessages,
    unreadNotifications,
    next: next
      ? {
          title: next.title,
          with: next.isSeller ? next.buyer.displayName : next.seller.displayName,
          role: next.isSeller ? "seller" : "buyer",
          startsAt: isoString(next.desiredStartTime),
          startsAtLabel: formatDateTime(next.desiredStartTime),
          inProgress: next.status === "in_progress",
        }
      : null,
  };
}

const sections = [
  { to: "/explore", label: "さがす", body: "ゲーム・価格・評価で探す" },
  { to: "/games", label: "ゲーム", body: "ゲームごとのページ" },
  { to: "/events", label: "イベント", body: "大会・交流会に参加" },
  { to: "/feed", label: "フィード", body: "みんなの投稿" },
] as const;

export default function HomePage() {
  const { mine, sellers, games, events, posts } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-10">
      {mine ? (
        <section aria-labelledby="mine-title" className="grid gap-3 sm:grid-cols-3">
          <h1 id="mine-title" className="sr-only">
            {PRODUCT_NAME} ホーム
          </h1>
          <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:col-span-2">
            <h2 className="text-sm font-semibold text-slate-600">次のセッション</h2>
            {mine.next ? (
              <p className="mt-1">
                <span className="block font-bold">{mine.next.title}</span>
                <span className="text-sm text-slate-700">
                  {`${mine.next.with}さんと・`}
                  {mine.next.inProgress ? "プレイ中" : <time dateTime={mine.next.startsAt}>{`${mine.next.startsAtLabel}〜`}</time>}
                </span>
                <Link to="/mypage/schedule" className="mt-2 block text-sm text-brand-700 underline">
                  スケジュールを見る
                </Link>
              </p>
            ) : (
              <p className="mt-1 text-sm text-slate-700">
                予定はまだありません。
                <Link to="/explore?online=1" className="text-brand-700 underline">
                  いま遊べる人をさがす
                </Link>
              </p>
            )}
          </div>
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-1">
            <li>
              <Link to="/chat" className="block rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:bg-brand-50">
                <span className="block text-sm font-semibold text-slate-600">未読メッセージ</span>
                <span className="text-xl font-bold" data-testid="home-unread-messages">{`${formatNumber(mine.unreadMessages)}件`}</span>
              </Link>
            </li>
            <li>
              <Link to="/notifications" className="block rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:bg-brand-50">
                <span className="block text-sm font-semibold text-slate-600">未読のお知らせ</span>
                <span className="text-xl font-bold" data-testid="home-unread-notifications">{`${formatNumber(mine.unreadNotifications)}件`}</span>
              </Link>
            </li>
          </ul>
        </section>
      ) : (
        <section className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-500 px-6 py-10 text-white sm:px-10" aria-labelledby="hero-title">
          <p className="text-sm font-semibold tracking-wide text-brand-100">ゲーマーマッチングプラットフォーム</p>
          <h1 id="hero-title" className="mt-2 text-3xl font-extrabold leading-tight sm:text-4xl">
            一緒に遊ぶ仲間が、
            <br className="sm:hidden" />
            ここで見つかる。
          </h1>
          <p className="mt-4 max-w-2xl text-brand-50">{`${PRODUCT_NAME}は、上手なプレイヤーや気の合う仲間の「プレイチケット」を予約して一緒に遊べる場所です。コインで支払い、代金はプレイが終わるまで預かります。`}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to="/explore" className="btn bg-white text-brand-700 hover:bg-brand-50">
              一緒に遊ぶ人をさがす
            </Link>
            <Link to="/signup" className="btn border border-white/60 text-white hover:bg-white/10">
              無料で登録
            </Link>
          </div>
        </section>
      )}

      <nav aria-label="さがし方">
        <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {sections.map((section) => (
            <li key={section.to}>
              <Link to={section.to} className="block h-full rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:bg-brand-50 hover:ring-brand-300">
                <span className="block font-bold text-brand-700">{section.label}</span>
                <span className="mt-1 block text-xs text-slate-600">{section.body}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <HomeSection id="online-title" title="いまオンラインの出品者" more={{ to: "/explore?online=1", label: "もっと見る" }}>
        {sellers.length === 0 ? (
          <Empty>
            いまオンラインの出品者はいません。
            <Link to="/explore" className="text-brand-700 underline">
              すべてのチケットを見る
            </Link>
          </Empty>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="オンラインの出品者">
            {sellers.map(({ listingId, title, game, price, minutes, seller }) => (
              <li key={seller.uid} className="flex gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <Avatar name={seller.displayName} src={seller.avatar} presence={{ userId: seller.uid, online: seller.online }} />
                <div className="min-w-0">
                  <Link to={`/u/${seller.uid}`} className="block truncate font-semibold text-brand-700 underline-offset-2 hover:underline">
                    {seller.displayName}
                  </Link>
                  <RatingSummary rating={seller.rating} />
                  <Link to={`/tickets/${listingId}`} className="mt-1 block truncate text-sm underline-offset-2 hover:underline">
                    {title}
                  </Link>
                  <p className="text-xs text-slate-600">{`${game}・${formatNumber(price)}コイン / ${minutes}分`}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </HomeSection>

      <HomeSection id="games-title" title="人気のゲーム" more={{ to: "/games", label: "すべてのゲーム" }}>
        {games.length === 0 ? (
          <Empty>まだゲームが登録されていません。</Empty>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="人気のゲーム">
            {games.map((game, index) => (
              <li key={game.slug}>
                <Link to={`/games/${game.slug}`} className="block overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200 hover:ring-brand-300">
                  <GameCover game={game} eager={index < 4} />
                  {/* The cover's name is decoration (aria-hidden): the link is named here. */}
                  <span className="sr-only">{game.name}</span>
                  <span className="block px-3 py-2 text-xs text-slate-600">{`チケット ${formatNumber(game.listingsCount)}件`}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </HomeSection>

      <HomeSection id="events-title" title="開催予定のイベント" more={{ to: "/events", label: "すべてのイベント" }}>
        {events.length === 0 ? (
          <Empty>開催予定のイベントはまだありません。</Empty>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-3" aria-label="開催予定のイベント">
            {events.map((event) => (
              <li key={event.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <p className="text-xs text-slate-600">{event.game}</p>
                <Link to={`/events/${event.id}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                  {event.title}
                </Link>
                <p className="text-sm text-slate-700">
                  <time dateTime={event.startsAt}>{`${event.startsAtLabel}〜`}</time>
                  {event.seatsLeft === 0 ? "・満員" : `・残り${event.seatsLeft}席`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </HomeSection>

      <HomeSection id="posts-title" title="新着の投稿" more={{ to: "/feed", label: "フィードを見る" }}>
        {posts.length === 0 ? (
          <Empty>まだ投稿はありません。</Empty>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2" aria-label="新着の投稿">
            {posts.map((post) => (
              <li key={post.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <p className="flex items-baseline justify-between gap-2 text-sm">
                  <Link to={`/u/${post.author.uid}/posts`} className="truncate font-semibold text-brand-700 underline-offset-2 hover:underline">
                    {post.author.displayName}
                  </Link>
                  <time dateTime={post.createdAt} className="shrink-0 text-xs text-slate-600">
                    {post.createdAtLabel}
                  </time>
                </p>
                {post.hidden ? <HiddenBadge className="mt-1" /> : null}
                <p className="mt-1 line-clamp-3 text-sm whitespace-pre-line text-slate-800">
                  {post.locked ? "サブスク限定の投稿です" : (post.excerpt ?? (post.hasImage ? "画像の投稿" : ""))}
                </p>
              </li>
            ))}
          </ul>
        )}
      </HomeSection>
    </div>
  );
}

function HomeSection({ id, title, more, children }: { id: string; title: string; more: { to: string; label: string }; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id={id} className="text-xl font-bold">
          {title}
        </h2>
        <Link to={more.to} className="shrink-0 text-sm text-brand-700 underline">
          {more.label}
        </Link>
      </div>
      {children}
    </section>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return <p className="rounded-xl bg-white p-5 text-sm text-slate-700 ring-1 ring-slate-200">{children}</p>;
}
