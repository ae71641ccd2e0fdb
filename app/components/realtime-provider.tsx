import type { Socket } from "socket.io-client";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { REALTIME_CONNECT_TIMEOUT_MS } from "~/lib/constants";
import { messages } from "~/lib/messages";
import type { RealtimeEventName } from "~/lib/realtime-events";
import { useAuth } from "./auth-provider";

/** SPEC §4: connected, disconnected, failed, suspended (the browser is offline). */
export type RealtimeState = "connected" | "disconnected" | "failed" | "suspended";

interface RealtimeContextValue {
  state: RealtimeState;
  error: string | null;
  socket: Socket | null;
  /** Goes up on every connect after the first: persisted data is the truth, so consumers refetch. */
  reconnects: number;
}

const RealtimeContext = createContext<RealtimeContextValue>({ state: "disconnected", error: null, socket: null, reconnects: 0 });

export const useRealtime = () => useContext(RealtimeContext);

/** Calls the handler for every event of that name while mounted. */
export function useRealtimeEvent<T>(event: RealtimeEventName, handler: (payload: T) => void) {
  const { socket } = useRealtime();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: T) => latest.current(payload);
    socket.on(event, listener);
    return () => void socket.off(event, listener);
  }, [socket, event]);
}

/**
 * One Socket.IO connection for the tab while signed in, authenticated with the session's access
 * token (PRODUCT §7). socket.io-client is loaded after hydration.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { session } = useAuth();
  const token = session?.access_token;
  const signedIn = !!token;
  const tokenRef = useRef(token);
  tokenRef.current = token;
  const [value, setValue] = useState<RealtimeContextValue>({ state: "disconnected", error: null, socket: null, reconnects: 0 });

  useEffect(() => {
    if (!signedIn) return;
    let socket: Socket | undefined;
    let cancelled = false;
    let connectedOnce = false;
    let timer: number | undefined;
    const update = (patch: Partial<RealtimeContextValue>) => !cancelled && setValue((current) => ({ ...current, ...patch }));

    const startTimer = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (!socket?.connected) update({ state: "failed", error: messages.realtime.connectTimeout });
      }, REALTIME_CONNECT_TIMEOUT_MS);
    };

    import("socket.io-client").then(({ io }) => {
      if (cancelled) return;
      // The token is read at each (re)connect, so a refreshed session is used.
      socket = io({ auth: (cb) => cb({ token: tokenRef.current }), timeout: REALTIME_CONNECT_TIMEOUT_MS });
      update({ socket });
      startTimer();
      socket.on("connect", () => {
        window.clearTimeout(timer);
        setValue((current) => ({
          ...current,
          state: "connected",
          error: null,
          reconnects: connectedOnce ? current.reconnects + 1 : current.reconnects,
        }));
        connectedOnce = true;
      });
      socket.on("disconnect", () => {
        update({ state: navigator.onLine ? "disconnected" : "suspended" });
        startTimer();
      });
      socket.on("connect_error", (error) => {
        update({ state: "failed", error: error.message });
        // An overloaded server refuses the handshake and says when to come back (server/overload.ts); the
        // client does not retry a refusal by itself. A little jitter keeps the returning tabs apart.
        const retryAfter = (error as Error & { data?: { retryAfter?: number } }).data?.retryAfter;
        if (retryAfter) window.setTimeout(() => !cancelled && socket?.connect(), retryAfter * 1000 * (1 + Math.random()));
      });
    });

    const offline = () => update({ state: "suspended" });
    const online = () => socket && !socket.connected && socket.connect();
    window.addEventListener("offline", offline);
    window.addEventListener("online", online);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
      socket?.close();
      setValue({ state: "disconnected", error: null, socket: null, reconnects: 0 });
    };
  }, [signedIn]);

  return (
    <RealtimeContext.Provider value={value}>
      {/* The connection state, for QA's Playwright flows to wait on. */}
      <div data-realtime-state={value.state} className="contents">
        {children}
      </div>
    </RealtimeContext.Provider>
  );
}
