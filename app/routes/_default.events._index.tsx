import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GameSelect } from "~/components/filter-select";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { formatDateTime, isoString } from "~/lib/time";
import { eventListQuerySchema } from "~/lib/validation/event";
import { listEvents, type EventSummary } from "~/models/events.server";
import { listGames } from "~/models/game.server";

export const meta: MetaFunction = () => pageMeta("イベント", "ゲームごとの開催予定・過去のイベント");

/** `/events`: upcoming events (soonest first) and past ones (latest first), of one game with `?game=`, each paged. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { game, page, pastPage } = parseQuery(eventListQuerySchema, request);
  const now = new Date();
  const [games, upcoming, past] = await Promise.all([
    listGames({ db: context.db }),
    listEvents({ db: context.db, now, when: "upcoming", gameSlug: game, page }),
    listEvents({ db: context.db, now, when: "past", gameSlug: game, page: pastPage }),
  ]);
  return { games, game: game ?? "", page, pastPage, upcoming, past };
}

export default function EventsPage() {
  const { games, game, page, pastPage, upcoming, past } = useLoaderData<typeof loader>();
  const gameName = games.find((g) => g.slug === game)?.name;
  const href = (next: { page?: number; pastPage?: number }) => {
    const search = new URLSearchParams();
    if (game) search.set("game", game);
    const upcomingPage = next.page ?? page;
    const pastPageNumber = next.pastPage ?? pastPage;
    if (upcomingPage > 0) search.set("page", String(upcomingPage));
    if (pastPageNumber > 0) search.set("pastPage", String(pastPageNumber));
    const query = search.toString();
    return query ? `/events?${query}` : "/events";
  };
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div className="space-y-3">
        <h1 className="text-2xl font-bold">イベント</h1>
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <GameSelect id="event-game" games={games} defaultValue={game} />
          <button type="submit" className="btn-secondary">
            絞り込む
          </button>
        </Form>
      </div>
      <EventSection
        id="upcoming-title"
        title="開催予定のイベント"
        events={upcoming.events}
        empty={gameName ? `${gameName}の開催予定のイベントはまだありません。` : "開催予定のイベントはまだありません。"}
        previous={page > 0 ? href({ page: page - 1 }) : null}
        next={upcoming.hasMore ? href({ page: page + 1 }) : null}
      />
      <EventSection
        id="past-title"
        title="過去のイベント"
        events={past.events}
        empty={gameName ? `${gameName}の過去のイベントはありません。` : "過去のイベントはありません。"}
        previous={pastPage > 0 ? href({ pastPage: pastPage - 1 }) : null}
        next={past.hasMore ? href({ pastPage: pastPage + 1 }) : null}
      />
    </div>
  );
}

function EventSection({ id, title, events, empty, previous, next }: { id: string; title: string; events: EventSummary[]; empty: string; previous: string | null; next: string | null }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      {events.length === 0 ? (
        <p className="rounded-lg bg-slate-50 px-4 py-4 text-sm text-slate-700">{empty}</p>
      ) : (
        <ul className="space-y-3">
          {events.map((event) => (
            <li key={event.id}>
              <EventCard event={event} />
            </li>
          ))}
        </ul>
      )}
      {previous || next ? (
        <nav aria-label={`${title}のページ`} className="flex justify-between text-sm">
          {previous ? (
            <Link to={previous} className="text-brand-700 underline">
              前へ
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link to={next} className="text-brand-700 underline">
              次へ
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

function EventCard({ event }: { event: EventSummary }) {
  return (
    <article className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <p className="text-xs text-slate-600">{event.game.name}</p>
      <h3 className="font-semibold">
        <Link to={`/events/${event.id}`} className="text-brand-700 underline">
          {event.title}
        </Link>
      </h3>
      <p className="text-sm text-slate-700">
        <time dateTime={isoString(event.startsAt)}>{formatDateTime(event.startsAt)}</time>〜<time dateTime={isoString(event.endsAt)}>{formatDateTime(event.endsAt)}</time>
      </p>
      <p className="text-sm text-slate-700">
        参加 {event.participantsCount}/{event.capacity}人{event.seatsLeft === 0 ? "（満員）" : `（残り${event.seatsLeft}席）`}
      </p>
    </article>
  );
}
