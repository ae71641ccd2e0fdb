import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { shouldShowChatPopup, type ChatMessageEvent } from "~/lib/chat-rules";
import { CHAT_POPUP_MS } from "~/lib/constants";
import { RealtimeEvent } from "~/lib/realtime-events";
import { useAuth } from "./auth-provider";
import { Avatar } from "./presence";
import { useRealtimeEvent } from "./realtime-provider";

/** The chat notification popup (docs/product.md#screens): a new message for you, for 5 seconds; click to open its room. */
export function ChatPopups() {
  const { claims } = useAuth();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [shown, setPopup] = useState<{ message: ChatMessageEvent; summary: string } | null>(null);
  const popup = shown?.message;

  useRealtimeEvent<ChatMessageEvent>(RealtimeEvent.chatMessage, (message) => {
    if (!claims || !shouldShowChatPopup({ pathname, message, userId: claims.sub })) return;
    // The summary's code (「画像を送信しました」…) comes with the first popup: most pages never show one.
    void import("~/lib/chat-summary").then(({ messageSummary }) => setPopup({ message, summary: messageSummary(message) }));
  });

  useEffect(() => {
    if (!popup) return;
    const timer = window.setTimeout(() => setPopup(null), CHAT_POPUP_MS);
    return () => window.clearTimeout(timer);
  }, [shown]);

  if (!shown || !popup) return null;
  return (
    <div className="fixed right-4 bottom-[calc(var(--phone-nav-height)+1rem)] z-50 w-80 max-w-[calc(100vw-2rem)]" role="status" aria-live="polite">
      <button
        type="button"
        onClick={() => {
          setPopup(null);
          navigate(`/chat/${popup.chatRoomId}`);
        }}
        className="flex w-full items-start gap-3 rounded-xl bg-white p-4 text-left shadow-lg ring-1 ring-slate-200 hover:bg-slate-50"
      >
        <Avatar name={popup.sender.displayName} src={popup.sender.avatar} />
        <span className="min-w-0">
          <span className="block text-sm font-semibold">{popup.sender.displayName}</span>
          <span className="line-clamp-2 text-sm text-slate-600">{shown.summary}</span>
        </span>
      </button>
    </div>
  );
}
