import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GameChips } from "~/components/game-chips";
import { NewPostLink } from "~/components/post-dialog";
import { requireProfile } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("マイページ");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { profile } = await requireProfile(request, context);
  return { profile };
}

// Only destinations that exist; later features add theirs.
const links = [
  { to: "/feed", title: "フィード", body: "みんなの新しい投稿と、あなたの投稿" },
  { to: "/mypage/footprints", title: "足あと", body: "あなたのプロフィールを見に来た人" },
  { to: "/mypage/schedule", title: "スケジュール", body: "予約が確定したプレイの予定（日本時間）" },
  { to: "/settings/ticket-management", title: "チケット管理", body: "購入・販売したチケットの承認・開始・完了" },
  { to: "/mypage/ticket-registration", title: "チケット登録", body: "一緒に遊ぶ時間をチケットとして出品" },
  { to: "/settings/store/transfer", title: "売上の振込申請", body: "売上コインを銀行口座へ振り込む申請と、その履歴" },
  { to: "/mypage/gamer-edit", title: "プロフィール編集", body: "表示名・自己紹介・遊んでいるゲーム" },
  { to: "/settings/subscription", title: "サブスクの管理", body: "サブスク中のゲーマーと期限、更新" },
  { to: "/settings/store/subscription", title: "サブスクプラン", body: "月額コインで限定投稿を届ける" },
  { to: "/settings/coin-history", title: "コイン履歴", body: "コインの購入・利用・売上の履歴と残高" },
  { to: "/coins", title: "コインを購入", body: "コインパッケージの一覧（税込価格）" },
  { to: "/settings", title: "設定", body: "アカウントの設定" },
];

export default function MyPage() {
  const { profile } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="mypage-title" className="space-y-6">
      <div>
        <h1 id="mypage-title" className="text-2xl font-bold">
          マイページ
        </h1>
        <p className="mt-1 text-slate-600">ようこそ、{profile.displayName}さん</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Link to={`/u/${profile.uid}`} className="btn-secondary">
            自分のプロフィールを見る
          </Link>
          <NewPostLink className="btn-primary">投稿する</NewPostLink>
        </div>
      </div>
      <GameChips games={profile.games} />
      <ul className="grid gap-3 sm:grid-cols-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="block rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500">
              <span className="font-bold text-brand-700">{link.title}</span>
              <span className="mt-1 block text-sm text-slate-600">{link.body}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
