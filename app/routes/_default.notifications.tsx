import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { useAuth } from "~/components/auth-provider";
import { NOTIFICATIONS_CHANGED_EVENT } from "~/components/notification-bell";
import { useRealtimeEvent } from "~/components/realtime-provider";
import { showToast } from "~/components/toaster";
import { requireUser } from "~/http/auth.server";
import { swallowed } from "~/http/log.server";
import { redirectWithToast } from "~/http/toast.server";
import { NOTIFICATIONS_PAGE_SIZE } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { RealtimeEvent } from "~/lib/realtime-events";
import { formatDateTime, isoString } from "~/lib/time";
import { pageQuerySchema } from "~/lib/validation/fields";
import { listNotifications, markAllNotificationsRead, type Notification } from "~/models/notification.server";

export const meta: MetaFunction = () => pageMeta("通知");

const pageOf = (request: Request) => parseQuery(pageQuerySchema, request).page;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const page = pageOf(request);
  // Notifications that cannot be loaded show as none (docs/product.md#errors); the server log has the cause.
  const { notifications, unreadCount } = await listNotifications({
    db: context.db,
    userId: user.id,
    limit: NOTIFICATIONS_PAGE_SIZE + 1,
    offset: page * NOTIFICATIONS_PAGE_SIZE,
  }).catch(swallowed("notifications", { notifications: [], unreadCount: 0 }));
  return {
    notifications: notifications.slice(0, NOTIFICATIONS_PAGE_SIZE),
    hasNext: notifications.length > NOTIFICATIONS_PAGE_SIZE,
    page,
    unreadCount,
  };
}

/** Without JavaScript, "すべて既読にする" posts here and comes back with a toast. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const page = pageOf(request);
  await markAllNotificationsRead({ db: context.db, userId: user.id });
  return redirectWithToast(request, context.config, page ? `/notifications?page=${page}` : "/notifications", {
    type: "success",
    title: messages.notifications.allRead,
  });
}

export default function NotificationsPage() {
  const { notifications, hasNext, page, unreadCount } = useLoaderData<typeof loader>();
  const { api } = useAuth();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const [error, setError] = useState<string | null>(null);
  const [marking, setMarking] = useState(false);
  useRealtimeEvent(RealtimeEvent.notificationNew, () => revalidator.revalidate());

  // With JavaScript: PATCH /api/notifications (docs/product.md#api). A failure leaves the list as it was and says so (docs/product.md#errors).
  const markAllRead = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMarking(true);
    setError(null);
    try {
      await api.patch("/api/notifications");
      window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED_EVENT));
      showToast({ type: "success", title: messages.notifications.allRead });
      revalidator.revalidate();
    } catch {
      setError(messages.api.failed);
    } finally {
      setMarking(false);
    }
  };
  const busy = marking || navigation.state === "submitting";

  return (
    <section aria-labelledby="notifications-title" className="mx-auto max-w-2xl">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 id="notifications-title" className="text-2xl font-bold">
          通知
          {unreadCount > 0 ? <span className="ml-2 align-middle text-sm font-semibold text-red-600">未読{unreadCount}件</span> : null}
        </h1>
        {unreadCount > 0 ? (
          <Form method="post" action={page ? `/notifications?page=${page}` : "/notifications"} onSubmit={markAllRead}>
            <button type="submit" className="btn-secondary" disabled={busy}>
              {busy ? "処理中…" : "すべて既読にする"}
            </button>
          </Form>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {notifications.length === 0 ? (
        <p className="rounded-xl bg-white p-8 text-center text-slate-500 ring-1 ring-slate-200">
          {page > 0 ? "このページに通知はありません。" : "通知はまだありません。"}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl bg-white shadow-sm ring-1 ring-slate-200" aria-label="通知一覧">
          {notifications.map((notification) => (
            <li key={notification.id}>
              <NotificationItem notification={notification} />
            </li>
          ))}
        </ul>
      )}
      <nav aria-label="ページ" className="mt-4 flex justify-between text-sm">
        {page > 0 ? (
          <Link to={page > 1 ? `/notifications?page=${page - 1}` : "/notifications"} className="text-brand-600 underline">
            新しい通知
          </Link>
        ) : (
          <span />
        )}
        {hasNext ? (
          <Link to={`/notifications?page=${page + 1}`} className="text-brand-600 underline">
            以前の通知
          </Link>
        ) : null}
      </nav>
    </section>
  );
}

const icons: Record<string, string> = { welcome: "🎮", chat_room: "💬", coins: "🪙", booking: "🎫", booking_started: "▶️", booking_extended: "⏱️" };

function NotificationItem({ notification }: { notification: Notification }) {
  const content = (
    <>
      <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-lg">
        {icons[notification.type] ?? "🔔"}
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap items-baseline justify-between gap-x-2">
          <span className={`min-w-0 break-words ${notification.isRead ? "font-medium text-slate-700" : "font-bold"}`}>
            {notification.isRead ? null : <span className="sr-only">未読: </span>}
            {notification.title}
          </span>
          <time className="shrink-0 text-xs text-slate-500" dateTime={isoString(notification.createdAt)}>
            {formatDateTime(notification.createdAt)}
          </time>
        </span>
        {notification.body ? <span className="mt-0.5 block text-sm text-slate-600">{notification.body}</span> : null}
      </span>
      {notification.isRead ? null : <span aria-hidden="true" className="mt-2 size-2 shrink-0 rounded-full bg-brand-500" data-testid="unread-dot" />}
    </>
  );
  const className = `flex items-start gap-3 p-4 ${notification.isRead ? "" : "bg-brand-50/40"}`;
  return notification.link ? (
    <Link to={notification.link} className={`${className} hover:bg-slate-50`}>
      {content}
    </Link>
  ) : (
    <div className={className}>{content}</div>
  );
}
