import { useEffect } from "react";
import { HEARTBEAT_INTERVAL_MS } from "~/lib/constants/notifications";
import { ClientEvent } from "~/lib/realtime-events";
import { useRealtime } from "./realtime-provider";

/**
 * Tells the server, over the tab's socket, that this chat room is open in a focused, visible tab (and once it is not),
 * so that its messages are not pushed to this user's devices meanwhile (ADR 052). Said again every heartbeat while it
 * stays so (the server stops trusting a focus not repeated for two minutes) and after every reconnect (a new socket).
 */
export function useFocusedRoom(roomId: string) {
  const { socket } = useRealtime();
  useEffect(() => {
    if (!socket) return;
    let said: string | null = null;
    const say = (again = false) => {
      const next = document.visibilityState === "visible" && document.hasFocus() ? roomId : null;
      if (next === said && !again) return;
      said = next;
      if (socket.connected) socket.emit(ClientEvent.chatFocus, { roomId: next });
    };
    const onChange = () => say();
    const onConnect = () => say(true);
    const repeat = setInterval(() => said && say(true), HEARTBEAT_INTERVAL_MS);
    window.addEventListener("focus", onChange);
    window.addEventListener("blur", onChange);
    document.addEventListener("visibilitychange", onChange);
    socket.on("connect", onConnect);
    say(true);
    return () => {
      clearInterval(repeat);
      window.removeEventListener("focus", onChange);
      window.removeEventListener("blur", onChange);
      document.removeEventListener("visibilitychange", onChange);
      socket.off("connect", onConnect);
      if (said && socket.connected) socket.emit(ClientEvent.chatFocus, { roomId: null });
    };
  }, [socket, roomId]);
}
