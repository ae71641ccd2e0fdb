import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { roomTitle } from "~/components/chat-view";
import { HiddenBadge } from "~/components/moderation-slots";
import { Avatar } from "~/components/presence";
import { requireProfile } from "~/http/auth.server";
import { messageSummary } from "~/lib/chat-summary";
import { CHAT_ROOMS_PAGE_SIZE } from "~/lib/constants";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { formatRelative } from "~/lib/time";
import { pageQuerySchema, uuidParam } from "~/lib/validation/fields";
import { createRoom, listRooms } from "~/models/chat-rooms.server";
import { ChatError, type ChatRoom } from "~/models/chat.server";

export const meta: MetaFunction = () => pageMeta("チャット");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const url = new URL(request.url);
  // /chat?with={uid}: the DIRECT room with that user, found or made (a profile's "チャットする" link).
  const withUser = url.searchParams.get("with");
  if (withUser) {
    const other = uuidParam.safeParse(withUser);
    if (!other.success) throw new Response(null, { status: 404 });
    try {
      const { chatRoom } = await createRoom({
        db: context.db,
        realtime: context.realtime,
        creatorId: user.id,
        participantIds: [other.data],
        type: "DIRECT",
        name: null,
      });
      throw redirect(`/chat/${chatRoom.id}`);
    } catch (error) {
      if (error instanceof ChatError) throw new Response(null, { status: error.status === 403 ? 403 : 404 });
      throw error;
    }
  }
  const { page } = parseQuery(pageQuerySchema, request);
  const rooms = await listRooms({ db: context.db, userId: user.id, limit: CHAT_ROOMS_PAGE_SIZE + 1, offset: page * CHAT_ROOMS_PAGE_SIZE });
  return { rooms: rooms.slice(0, CHAT_ROOMS_PAGE_SIZE), hasNext: rooms.length > CHAT_ROOMS_PAGE_SIZE, page, viewerId: user.id };
}

/** A DIRECT room shows the other person, with their green dot; other rooms show their initial. */
function RoomAvatar({ room, viewerId }: { room: ChatRoom; viewerId: string }) {
  const other = room.type === "DIRECT" ? room.participants.find((p) => p.uid !== viewerId) : undefined;
  if (!other) return <Avatar name={roomTitle(room, viewerId)} src={null} />;
  return <Avatar name={other.displayName} src={other.avatar} presence={{ userId: other.uid, online: other.online }} />;
}

export default function ChatListPage() {
  const { rooms, hasNext, page, viewerId } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="chat-title" className="w-full overflow-y-auto px-4 py-6">
      <h1 id="chat-title" className="mb-4 text-2xl font-bold">
        チャット
      </h1>
      {rooms.length === 0 ? (
        <p className="rounded-xl bg-white p-8 text-center text-slate-500 ring-1 ring-slate-200">
          まだチャットはありません。気になるゲーマーのプロフィールから話しかけてみましょう。
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          {rooms.map((room) => (
            <li key={room.id}>
              <Link to={`/chat/${room.id}`} className="flex items-center gap-3 p-4 hover:bg-slate-50">
                <RoomAvatar room={room} viewerId={viewerId} />
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline justify-between gap-2">
                    <span className="truncate font-semibold">{roomTitle(room, viewerId)}</span>
                    <time className="shrink-0 text-xs text-slate-500" dateTime={room.lastActivityAt}>
                      {formatRelative(room.lastActivityAt)}
                    </time>
                  </span>
                  <span className="block truncate text-sm text-slate-600">
                    {room.lastMessage?.hidden ? <HiddenBadge className="mr-1" /> : null}
                    {room.lastMessage ? messageSummary(room.lastMessage) : "メッセージはまだありません"}
                  </span>
                </span>
                {room.unreadCount > 0 ? (
                  <span className="rounded-full bg-red-600 px-2 py-0.5 text-xs font-bold text-white" aria-label={`未読${room.unreadCount}件`}>
                    {room.unreadCount}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label="ページ" className="mt-4 flex justify-between text-sm">
        {page > 0 ? <Link to={`/chat?page=${page - 1}`} className="text-brand-600 underline">新しいチャット</Link> : <span />}
        {hasNext ? <Link to={`/chat?page=${page + 1}`} className="text-brand-600 underline">以前のチャット</Link> : null}
      </nav>
    </section>
  );
}
