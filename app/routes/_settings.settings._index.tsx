import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { SignOutButton } from "~/components/sign-out-button";
import { requireProfile } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("設定");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, profile } = await requireProfile(request, context);
  return { email: user.email, displayName: profile.displayName };
}

const ACCOUNT_LINKS = [
  { to: "/settings/password", label: "パスワードの変更", hint: "現在のパスワードを確認して変更します" },
  { to: "/settings/email", label: "メールアドレスの変更", hint: "新しいアドレスに確認メールを送ります" },
  { to: "/settings/notifications", label: "通知メール", hint: "メールで受け取る通知を選べます" },
  { to: "/settings/coin-history", label: "コイン履歴", hint: "購入・利用・受け取りの記録" },
  { to: "/settings/reports", label: "通報の履歴", hint: "送った通報と対応状況" },
  { to: "/settings/account", label: "退会", hint: "アカウントを削除します" },
] as const;

export default function SettingsPage() {
  const { email, displayName } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="settings-title" className="space-y-6">
      <h1 id="settings-title" className="text-2xl font-bold">
        設定
      </h1>
      <dl className="divide-y divide-slate-100 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap justify-between gap-2 p-4">
          <dt className="font-semibold">メールアドレス</dt>
          <dd className="text-slate-600">{email}</dd>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 p-4">
          <dt className="font-semibold">表示名</dt>
          <dd className="flex items-center gap-3 text-slate-600">
            {displayName}
            <Link to="/mypage/gamer-edit" className="text-sm text-brand-600 underline">
              変更
            </Link>
          </dd>
        </div>
      </dl>
      <nav aria-label="アカウント" className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <ul className="divide-y divide-slate-100">
          {ACCOUNT_LINKS.map(({ to, label, hint }) => (
            <li key={to}>
              <Link to={to} className="flex flex-wrap items-center justify-between gap-2 p-4 hover:bg-slate-50">
                <span className="font-semibold text-brand-700">{label}</span>
                <span className="text-sm text-slate-600">{hint}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="sessions-title" className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="sessions-title" className="font-semibold">
          ログイン中の端末
        </h2>
        <p className="text-sm text-slate-600">
          「ログアウト」はこの端末だけをログアウトします。ほかのスマートフォンやパソコンでもログアウトするときは「すべての端末からログアウト」を押してください。
        </p>
        <div className="flex flex-wrap gap-3">
          <SignOutButton className="btn-secondary" />
          <SignOutButton className="btn-secondary" everywhere />
        </div>
      </section>
    </section>
  );
}
