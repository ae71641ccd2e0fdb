import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/constants";
import { pageMeta } from "~/lib/meta";
import { listGames } from "~/models/game.server";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = () =>
  pageMeta("ホーム", "一緒に遊ぶゲーマーが見つかる。チケットの予約・販売、チャット、レビューができるゲーマーマッチングプラットフォーム。");

export async function loader({ context }: LoaderFunctionArgs) {
  return { games: await listGames({ db: context.db, limit: 12 }) };
}

const features = [
  { title: "チケットで一緒に遊ぶ", body: "上手なプレイヤーや気の合う仲間の「プレイチケット」を予約。日時を決めて一緒にプレイできます。" },
  { title: "得意なゲームで稼ぐ", body: "自分のプレイ時間をチケットとして出品。コーチングや一緒に遊ぶ時間がコインになります。" },
  { title: "チャットですぐ相談", body: "予約前の相談も当日の連絡も、リアルタイムのチャットで。新着はその場で通知されます。" },
  { title: "安心のコイン決済", body: "支払いはコインで。代金はプレイが終わるまで預かり、キャンセル時は全額返金されます。" },
];

export default function HomePage() {
  const { games } = useLoaderData<typeof loader>();
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.viewer);
  return (
    <div className="space-y-14">
      <section className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-500 px-6 py-12 text-white sm:px-10" aria-labelledby="hero-title">
        <p className="text-sm font-semibold tracking-wide text-brand-100">ゲーマーマッチングプラットフォーム</p>
        <h1 id="hero-title" className="mt-2 text-3xl font-extrabold leading-tight sm:text-4xl">
          一緒に遊ぶ仲間が、
          <br className="sm:hidden" />
          ここで見つかる。
        </h1>
        <p className="mt-4 max-w-2xl text-brand-50">
          {PRODUCT_NAME}は、ゲームを一緒に楽しむ相手を探せる場所です。プレイチケットの予約や出品、チャット、レビューまで、ひとつのサービスで完結します。
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to="/tickets" className="btn bg-white text-brand-700 hover:bg-brand-50">
            チケットを探す
          </Link>
          <Link to="/support" className="btn border border-white/60 text-white hover:bg-white/10">
            はじめての方へ
          </Link>
        </div>
      </section>

      <section aria-labelledby="features-title">
        <h2 id="features-title" className="mb-5 text-xl font-bold">
          {PRODUCT_NAME}でできること
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {features.map((feature) => (
            <li key={feature.title} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
              <h3 className="font-bold text-brand-700">{feature.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="games-title">
        <h2 id="games-title" className="mb-5 text-xl font-bold">
          人気のゲーム
        </h2>
        {games.length === 0 ? (
          <p className="rounded-xl bg-white p-6 text-center text-slate-500 ring-1 ring-slate-200">
            まだゲームが登録されていません。
          </p>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" data-testid="game-list">
            {games.map((game) => (
              <li key={game.slug}>
                {/* No game page yet: a card leads to where the game is used, the player's own list of games. */}
                <Link
                  to={signedIn ? `/mypage/gamer-edit#game-${game.slug}` : "/signup"}
                  className="block h-full rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:bg-brand-50 hover:ring-brand-300"
                >
                  <span className="block font-bold">{game.name}</span>
                  <span className="mt-1 block text-xs text-slate-500">{game.nameKana}</span>
                  <span className="mt-2 block text-xs font-semibold text-brand-700">{signedIn ? "プロフィールで設定 →" : "登録して仲間を探す →"}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
