import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/presence";
import { requireProfile } from "~/http/auth.server";
import { FOOTPRINTS_PAGE_SIZE } from "~/lib/constants";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { formatDateTime, isoString } from "~/lib/time";
import { pageQuerySchema } from "~/lib/validation/fields";
import { listFootprints } from "~/models/footprints.server";

export const meta: MetaFunction = () => pageMeta("足あと");

/** `/mypage/footprints` (足あと): who visited the viewer's profile, the latest visit first, in Asia/Tokyo. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const { page } = parseQuery(pageQuerySchema, request);
  const { footprints, hasMore } = await listFootprints({ db: context.db, userId: user.id, limit: FOOTPRINTS_PAGE_SIZE, offset: page * FOOTPRINTS_PAGE_SIZE });
  return { footprints, hasMore, page, uid: user.id };
}

export default function FootprintsPage() {
  const { footprints, hasMore, page, uid } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="footprints-title" className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 id="footprints-title" className="text-2xl font-bold">
          足あと
        </h1>
        <p className="mt-1 text-slate-600">あなたのプロフィールを見に来た人です（新しい順）。</p>
      </div>
      {footprints.length === 0 ? (
        <div className="rounded-xl bg-white p-8 text-center text-slate-600 ring-1 ring-slate-200">
          <p>まだ足あとはありません。</p>
          <p className="mt-2 text-sm">
            <Link to={`/u/${uid}`} className="text-brand-700 underline">
              プロフィール
            </Link>
            を充実させたり、
            <Link to="/feed" className="text-brand-700 underline">
              フィード
            </Link>
            に投稿したりすると見に来てもらいやすくなります。
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl bg-white ring-1 ring-slate-200" aria-label="足あと一覧">
          {footprints.map((footprint) => (
            <li key={footprint.visitor.uid}>
              <Link to={`/u/${footprint.visitor.uid}`} className="flex items-center gap-3 px-4 py-3 hover:bg-slate-50">
                <Avatar name={footprint.visitor.displayName} src={footprint.visitor.avatar} presence={{ userId: footprint.visitor.uid, online: footprint.visitor.online }} />
                <span className="min-w-0 flex-1 truncate font-semibold">{footprint.visitor.displayName}</span>
                <time className="shrink-0 text-sm text-slate-600" dateTime={isoString(footprint.visitedAt)}>
                  {formatDateTime(footprint.visitedAt)}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {page > 0 || hasMore ? (
        <nav aria-label="ページ送り" className="flex justify-between text-sm">
          {page > 0 ? (
            <Link to={`?page=${page - 1}`} className="text-brand-700 underline">
              新しい足あと
            </Link>
          ) : (
            <span />
          )}
          {hasMore ? (
            <Link to={`?page=${page + 1}`} className="text-brand-700 underline">
              以前の足あと
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
