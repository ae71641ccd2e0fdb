import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { RealtimeContextValue } from "~/lib/realtime-connection";
import type { RealtimeEventName } from "~/lib/realtime-events";
import { useAuth } from "./auth-provider";


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
 * One Socket.IO connection for the tab while signed in, authenticated with the session's access token (docs/product.md#realtime),
 * which the root loader hands out. A token that has expired since (a tab open for hours) is turned down at the
 * handshake: the client then asks the server for the current one (the cookies refresh it) and connects again.
 * socket.io-client is loaded after hydration.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { session, api, markInvalid } = useAuth();
  const token = session?.access_token;
  const signedIn = !!token;
  const tokenRef = useRef(token);
  useEffect(() => {
    tokenRef.current = token;
  }, [token]);
  const [value, setValue] = useState<RealtimeContextValue>({ state: "disconnected", error: null, socket: null, reconnects: 0 });

  useEffect(() => {
    if (!signedIn) return;
    let cancelled = false;
    let close = () => {};
    // The connection's code, socket.io-client with it, loads only for a signed-in tab and after hydration.
    void import("~/lib/realtime-connection").then(({ connectRealtime }) => {
      if (cancelled) return;
      close = connectRealtime({
        token: tokenRef,
        freshToken: () => api.get<{ accessToken: string }>("/api/auth/token").then((body) => body?.accessToken),
        onRefused: markInvalid,
        update: (patch) => !cancelled && setValue((current) => ({ ...current, ...(typeof patch === "function" ? patch(current) : patch) })),
      });
    });
    return () => {
      cancelled = true;
      close();
      setValue({ state: "disconnected", error: null, socket: null, reconnects: 0 });
    };
    // A new token reaches the socket through tokenRef at its next (re)connect; api and markInvalid are stable enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
