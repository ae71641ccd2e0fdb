import { io, type Socket } from "socket.io-client";
import { ApiError } from "./api-client";
import { REALTIME_CONNECT_TIMEOUT_MS } from "./constants";
import { messages } from "./messages";
import { RealtimeEvent } from "./realtime-events";

/** docs/product.md#states: connected, disconnected, failed, suspended (the browser is offline). */
export type RealtimeState = "connected" | "disconnected" | "failed" | "suspended";

/** What the realtime provider (app/components/realtime-provider.tsx) shares with the page. */
export interface RealtimeContextValue {
  state: RealtimeState;
  error: string | null;
  socket: Socket | null;
  /** Goes up on every connect after the first: persisted data is the truth, so consumers refetch. */
  reconnects: number;
}

type Update = Partial<RealtimeContextValue> | ((current: RealtimeContextValue) => Partial<RealtimeContextValue>);

/**
 * When the server says it is going away (`server:move`, a deploy: ADR 048), the socket reconnects at once instead of
 * after the reconnection's first delay (0.5–1.5 s): the load balancer has already taken that replica out, so the new
 * connection lands on one that stays, and the session is recovered there. Closing the transport (not the socket)
 * keeps it a recoverable disconnect for the server.
 */
export function moveWhenAsked(socket: Socket) {
  socket.on(RealtimeEvent.move, () => moveNow(socket));
}

/** Reconnects at once, as a recoverable disconnect: what `server:move` asks for (and the cluster test's calibration). */
export function moveNow(socket: Socket) {
  const manager = socket.io;
  const delay = manager.reconnectionDelay();
  // The first attempt at once; from the second on (that one failed), the usual growing delays.
  manager.reconnectionDelay(0);
  manager.once("reconnect_attempt", () => manager.reconnectionDelay(delay));
  manager.engine?.close();
}

/**
 * Opens the tab's Socket.IO connection and reports its state (docs/product.md#states) through `update`; answers the function that
 * closes it. The socket authenticates with `token.current` at each (re)connect; a token turned down at the handshake
 * (it expired while the tab was open) is replaced by `freshToken()` once, and a session the server no longer knows is
 * `onRefused`.
 */
export function connectRealtime({
  token,
  freshToken,
  onRefused,
  update,
}: {
  token: { current: string | undefined };
  freshToken: () => Promise<string | undefined>;
  onRefused: () => void;
  update: (patch: Update) => void;
}) {
  let closed = false;
  let connectedOnce = false;
  let timer: number | undefined;
  let refreshingToken = false;
  const socket: Socket = io({ auth: (cb) => cb({ token: token.current }), timeout: REALTIME_CONNECT_TIMEOUT_MS });

  const startTimer = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      if (!socket.connected) update({ state: "failed", error: messages.realtime.connectTimeout });
    }, REALTIME_CONNECT_TIMEOUT_MS);
  };

  update({ socket });
  startTimer();
  moveWhenAsked(socket);
  socket.on("connect", () => {
    window.clearTimeout(timer);
    refreshingToken = false;
    update((current) => ({ state: "connected", error: null, reconnects: connectedOnce ? current.reconnects + 1 : current.reconnects }));
    connectedOnce = true;
  });
  socket.on("disconnect", () => {
    update({ state: navigator.onLine ? "disconnected" : "suspended" });
    startTimer();
  });
  socket.on("connect_error", (error) => {
    update({ state: "failed", error: error.message });
    if (error.message === "unauthorized") {
      if (refreshingToken) return;
      refreshingToken = true;
      freshToken()
        .then((fresh) => {
          // The same token again means the server itself refuses it: do not knock forever.
          if (closed || !fresh || fresh === token.current) return;
          token.current = fresh;
          refreshingToken = false;
          socket.connect();
        })
        .catch((reason) => {
          if (!closed && reason instanceof ApiError && reason.status === 401) onRefused();
        });
      return;
    }
    // An overloaded server refuses the handshake and says when to come back (server/overload.ts); the client does
    // not retry a refusal by itself. A little jitter keeps the returning tabs apart.
    const retryAfter = (error as Error & { data?: { retryAfter?: number } }).data?.retryAfter;
    if (retryAfter) window.setTimeout(() => !closed && socket.connect(), retryAfter * 1000 * (1 + Math.random()));
  });

  const offline = () => update({ state: "suspended" });
  const online = () => !socket.connected && socket.connect();
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);
  return () => {
    closed = true;
    window.clearTimeout(timer);
    window.removeEventListener("offline", offline);
    window.removeEventListener("online", online);
    socket.close();
  };
}
