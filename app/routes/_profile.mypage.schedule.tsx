import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { Avatar } from "~/components/presence";
import { useRealtimeEvent } from "~/components/realtime-provider";
import { useBookingReloads } from "~/components/use-booking-reloads";
import { requireProfile } from "~/http/auth.server";
import { BOOKING_STATUS_LABELS, counterpartLabel } from "~/lib/booking-rules";
import { formatMinutes } from "~/lib/booking-time";
import { pageMeta } from "~/lib/meta";
import { RealtimeEvent } from "~/lib/realtime-events";
import { formatDayHeading, formatTime, isoString, tokyoDateKey } from "~/lib/time";
import { listUpcoming } from "~/models/bookings/queries.server";

export const meta: MetaFunction = () => pageMeta("スケジュール");

/** Upcoming accepted and in-progress sessions, as buyer and as seller, by day in Asia/Tokyo (docs/product.md#bookings). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const sessions = await listUpcoming({ db: context.db, userId: user.id });
  const days = new Map<string, typeof sessions>();
  for (const session of sessions) {
    const day = tokyoDateKey(session.startedAt ?? session.desiredStartTime);
    days.set(day, [...(days.get(day) ?? []), session]);
  }
  return { days: [...days.entries()].map(([day, items]) => ({ day, sessions: items })) };
}

export default function SchedulePage() {
  const { days } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const reload = () => revalidator.state === "idle" && revalidator.revalidate();
  useBookingReloads({ reload });
  useRealtimeEvent(RealtimeEvent.gameStarted, reload);
  useRealtimeEvent(RealtimeEvent.gameExtended, reload);

  return (
    <section aria-labelledby="schedule-title" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 id="schedule-title" className="text-2xl font-bold">
          スケジュール
        </h1>
        <Link to="/settings/ticket-management" className="text-sm text-brand-700 underline">
          チケット管理へ
        </Link>
      </div>
      {days.length === 0 ? (
        <div className="rounded-xl bg-white p-8 text-center ring-1 ring-slate-200">
          <p className="font-semibold">予定はまだありません。</p>
          <p className="mt-2 text-sm text-slate-600">承認された予約がここに日付ごとに並びます。</p>
          <Link to="/explore" className="mt-3 inline-block text-brand-700 underline">
            一緒に遊ぶ相手を探す
          </Link>
        </div>
      ) : (
        days.map(({ day, sessions }) => (
          <section key={day} aria-labelledby={`day-${day}`} className="space-y-2">
            <h2 id={`day-${day}`} className="text-lg font-bold">
              {formatDayHeading(day)}
            </h2>
            <ol className="space-y-2">
              {sessions.map((session) => {
                const other = session.isSeller ? session.buyer : session.seller;
                const start = session.startedAt ?? session.desiredStartTime;
                return (
                  <li key={session.id} className="flex items-center gap-3 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
                    <time dateTime={isoString(start)} className="w-14 shrink-0 text-lg font-bold tabular-nums">
                      {formatTime(start)}
                    </time>
                    <Avatar name={other.displayName} src={other.avatar} size="sm" />
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-semibold">{session.title}</p>
                      <p className="text-sm text-slate-600">
                        {counterpartLabel(session.isSeller)} {other.displayName}・{formatMinutes(session.totalMinutes)}・{BOOKING_STATUS_LABELS[session.status]}
                      </p>
                    </div>
                  </li>
                );
              })}
            </ol>
          </section>
        ))
      )}
    </section>
  );
}
