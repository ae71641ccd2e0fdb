import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GameCover } from "~/components/game-cover";
import { pageMeta } from "~/lib/meta";
import { listGames } from "~/models/game.server";

export const meta: MetaFunction = () => pageMeta("ゲーム一覧", "GamerMatchで一緒に遊べるゲームの一覧です。");

/** `/games`: every game with its cover, each linking to its page. */
export async function loader({ context }: LoaderFunctionArgs) {
  return { games: await listGames({ db: context.readDb }) };
}

export default function GamesPage() {
  const { games } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="games-title" className="space-y-6">
      <h1 id="games-title" className="text-2xl font-bold">
        ゲーム一覧
      </h1>
      {games.length === 0 ? (
        <p className="rounded-xl bg-white p-8 text-center text-slate-600 ring-1 ring-slate-200">まだゲームが登録されていません。</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="ゲーム">
          {games.map((game, index) => (
            <li key={game.slug}>
              <Link to={`/games/${game.slug}`} className="block rounded-xl bg-white shadow-sm ring-1 ring-slate-200 hover:ring-brand-500">
                <GameCover game={game} eager={index < 4} />
                <span className="block px-4 py-3">
                  <span className="block font-bold">{game.name}</span>
                  <span className="block text-xs text-slate-600">{game.nameKana}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
