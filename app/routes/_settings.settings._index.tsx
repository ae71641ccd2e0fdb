import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { SignOutButton } from "~/components/sign-out-button";
import { requireProfile } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("設定");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, profile } = await requireProfile(request, context);
  return { email: user.email, displayName: profile.displayName };
}

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
      <p>
        <Link to="/settings/coin-history" className="text-brand-700 underline">
          コイン履歴
        </Link>
      </p>
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
