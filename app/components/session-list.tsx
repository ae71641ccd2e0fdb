import { Form, useNavigation } from "@remix-run/react";
import { formatDateTime, isoString } from "~/lib/time";
import type { SessionListItem } from "~/models/auth/session-list.server";

/** Where the forms post (app/routes/settings.security.sessions.ts), which sends the browser back with a toast. */
const ACTION = "/settings/security/sessions";

/**
 * 「ログイン中の端末」 of /settings/security (docs/product.md#sessions): each device the account is signed in on, this one
 * first and marked, each other with its own 「ログアウト」, and 「この端末以外からログアウト」 while there are others.
 * Plain forms, so it all works before JavaScript loads. `sessions` is null where the app cannot list them (hosted
 * Supabase, `loadSessionList`): then only the button, which works there too.
 */
export function SessionList({ sessions }: { sessions: SessionListItem[] | null }) {
  const busy = useNavigation().state !== "idle";
  const others = sessions === null || sessions.some((session) => !session.current);
  return (
    <section aria-labelledby="sessions-title" className="space-y-3 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="sessions-title" className="text-lg font-bold">
        ログイン中の端末
      </h2>
      {sessions === null ? (
        <p className="text-sm text-slate-600">この環境では端末ごとの一覧は表示できません。ほかの端末はまとめてログアウトできます。</p>
      ) : (
        <ul aria-labelledby="sessions-title" className="divide-y divide-slate-100">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} busy={busy} />
          ))}
        </ul>
      )}
      {others ? (
        <Form method="post" action={ACTION}>
          <input type="hidden" name="intent" value="sign-out-others" />
          <button type="submit" className="btn-secondary" disabled={busy}>
            この端末以外からログアウト
          </button>
        </Form>
      ) : (
        <p className="text-sm text-slate-600">ほかにログインしている端末はありません。</p>
      )}
    </section>
  );
}

function SessionRow({ session, busy }: { session: SessionListItem; busy: boolean }) {
  const signedIn = formatDateTime(session.signedInAt);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="session-row">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold break-words">{session.device}</span>
          {session.current ? <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">この端末</span> : null}
          {session.verified ? <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">二段階認証済み</span> : null}
        </p>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
          <div className="flex gap-1">
            <dt>ログイン</dt>
            <dd>
              <time dateTime={isoString(session.signedInAt)}>{signedIn}</time>
            </dd>
          </div>
          <div className="flex gap-1">
            <dt>最終利用</dt>
            <dd>
              <time dateTime={isoString(session.lastUsedAt)}>{formatDateTime(session.lastUsedAt)}</time>
            </dd>
          </div>
        </dl>
      </div>
      {session.current ? null : (
        <Form method="post" action={ACTION}>
          <input type="hidden" name="intent" value="sign-out-session" />
          <input type="hidden" name="sessionId" value={session.id} />
          {/* The visible word first in its name, then which device, for a list of buttons that all say ログアウト. */}
          <button type="submit" className="btn-secondary" disabled={busy}>
            ログアウト<span className="sr-only">：{session.device}（{signedIn}にログイン）</span>
          </button>
        </Form>
      )}
    </li>
  );
}
