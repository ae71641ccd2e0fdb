import type { Server as SocketServer } from "socket.io";
import { DATABASE_RETRY_AFTER_SECONDS } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { userChannel, roomChannel, type RealtimeEventName } from "~/lib/realtime-events";
import type { AuthUser } from "./auth/session";
import { isConnectionError } from "./db/errors";

/**
 * The only way the app emits realtime events (docs/product.md#realtime). Models call it; with REDIS_URL the
 * Socket.IO adapter carries every call to the sockets on other replicas too.
 */
export interface Realtime {
  /** Sends an event to every socket of these users. */
  toUsers(userIds: readonly string[], event: RealtimeEventName, payload: unknown): void;
  /** Makes the users' connected sockets join a chat room's channel (they just became participants). */
  joinRoom(userIds: readonly string[], roomId: string): void;
  /**
   * Closes the user's sockets on every replica, but those of `keepSessionId`, or only those of `sessionId`: their
   * sessions ended (a new password, sign-out everywhere, leaving, one device signed out from another), so what they
   * would still hear is no longer theirs to hear. A socket the server closes does not come back by itself
   * (socket.io's "io server disconnect"): the sockets of sessions still live are left open.
   */
  disconnectUser(userId: string, options?: { keepSessionId?: string; sessionId?: string }): Promise<void>;
  /**
   * Sends an event to this process's sockets that joined one of the desk's channels (ADR 071: the operators', never a
   * gamer's). This process's only: what the desk hears is announced by every server process, each hearing the
   * database's notice (a Redis broadcast on top would say it once per process). Optional: an emitter made for a test
   * leaves it out, and the desk then says nothing live.
   */
  toDesk?(channel: string, event: RealtimeEventName, payload: unknown): void;
}

/**
 * Authenticates every socket with the access token of its handshake (`auth: { token }`), joins it
 * to `user:{id}` and to the channels of its chat rooms, and answers the emitter the app uses.
 */
export function attachRealtime(
  io: SocketServer,
  {
    authenticate,
    roomIdsOf,
    deskChannelsOf,
    onConnect,
    onDisconnect,
    onEmit,
  }: {
    authenticate: (accessToken: string) => Promise<AuthUser | null>;
    roomIdsOf: (userId: string) => Promise<string[]>;
    /** The operators' desk's channels this socket may hear (ADR 071), decided when it connects; none for gamers. */
    deskChannelsOf?: (user: AuthUser) => Promise<string[]>;
    /** Runs before the socket hears "ready" (presence marks the user seen). */
    onConnect?: (userId: string) => Promise<unknown>;
    onDisconnect?: (userId: string) => void;
    /** Told of every event sent to users (the metrics count chat messages and their recipients). */
    onEmit?: (event: RealtimeEventName, userIds: readonly string[]) => void;
  },
): Realtime {
  io.use(async (socket, next) => {
    const token = socket.handshake.auth?.token;
    let unreachable = false;
    const user =
      typeof token === "string"
        ? await authenticate(token).catch((error) => {
            unreachable = isConnectionError(error);
            return null;
          })
        : null;
    // The database out of reach: not "unauthorized" (the browser would drop its session), but come back later.
    if (unreachable) return next(Object.assign(new Error(messages.api.databaseUnavailable), { data: { retryAfter: DATABASE_RETRY_AFTER_SECONDS } }));
    if (!user) return next(new Error("unauthorized"));
    socket.data.user = user;
    next();
  });

  io.on("connection", async (socket) => {
    const userId = (socket.data.user as AuthUser).id;
    await socket.join(userChannel(userId));
    socket.on("disconnect", () => onDisconnect?.(userId));
    const [rooms, desk] = await Promise.all([
      roomIdsOf(userId).catch(() => []),
      deskChannelsOf?.(socket.data.user as AuthUser).catch(() => []) ?? [],
      onConnect?.(userId).catch(() => undefined),
    ]);
    if (rooms.length) await socket.join(rooms.map(roomChannel));
    if (desk.length) await socket.join(desk);
    socket.emit("ready");
  });

  return {
    toUsers(userIds, event, payload) {
      if (!userIds.length) return;
      io.to(userIds.map(userChannel)).emit(event, payload);
      onEmit?.(event, userIds);
    },
    toDesk(channel, event, payload) {
      io.local.to(channel).emit(event, payload);
    },
    joinRoom(userIds, roomId) {
      if (userIds.length) io.in(userIds.map(userChannel)).socketsJoin(roomChannel(roomId));
    },
    async disconnectUser(userId, { keepSessionId, sessionId } = {}) {
      if (!keepSessionId && !sessionId) return void io.in(userChannel(userId)).disconnectSockets(true);
      const sockets = await io.in(userChannel(userId)).fetchSockets();
      for (const socket of sockets) {
        const socketSessionId = (socket.data.user as AuthUser | undefined)?.sessionId;
        if (sessionId ? socketSessionId === sessionId : socketSessionId !== keepSessionId) socket.disconnect(true);
      }
    },
  };
}
