import type { Server as SocketServer } from "socket.io";
import type { AuthService, AuthUser } from "../../app/infra/auth/session";
import { hostedAppMetadata } from "../../app/infra/auth/hosted-admin";
import type { AppConfig } from "../../app/infra/config";
import type { DatabaseHandle } from "../../app/infra/db";
import { log } from "../../app/infra/logger.server";
import { attachRealtime, type Realtime } from "../../app/infra/realtime";
import { CHAT_SEND_POSTGRES_CONCURRENCY } from "../../app/lib/constants/chat";
import { RealtimeEvent } from "../../app/lib/realtime-events";
import { createChatSender, type ChatSender } from "../../app/models/chat-sender.server";
import { listRoomIds } from "../../app/models/chat-rooms.server";
import { deskChannelsOf, openReportsAnnouncer } from "../../app/models/desk-live.server";
import { embeddedRoleStore, hostedRoleStore } from "../../app/models/operators.server";
import { readSessionsEndedNotice } from "../../app/models/auth/sessions.server";
import { SESSIONS_ENDED_CHANNEL } from "../../app/models/moderation.server";
import { REPORTS_CHANGED_CHANNEL } from "../../app/models/reports-changed.server";
import { attachChatSend } from "../chat-socket";
import type { Metrics } from "../metrics";
import type { OverloadGuard } from "../overload";
import { startPresenceTracker, type PresenceTracker } from "../presence";
import { attachRoomFocus } from "../room-focus";
import type { Sweeper } from "../sweeper";

export interface AppRealtime {
  realtime: Realtime;
  presence: PresenceTracker;
  chat: ChatSender;
}

/**
 * What the sockets carry: the one emitter with its presence tracker, sockets closed for sessions ended elsewhere, the
 * chat sender (also the API's and the form's), `chat:send` and the focused room.
 */
export async function startRealtime({
  io,
  config,
  database,
  auth,
  metrics,
  overload,
  onDatabaseBack,
}: {
  io: SocketServer;
  config: AppConfig;
  database: DatabaseHandle;
  auth: AuthService;
  metrics: Metrics;
  overload: OverloadGuard;
  /** The sessions-ended listener's connection was lost and is back: it heard nothing meanwhile. */
  onDatabaseBack: () => void;
}): Promise<AppRealtime> {
  // Before the realtime module's own middleware: an overloaded server does not spend a query on a handshake.
  io.use(overload.socketMiddleware);
  // The tracker needs the emitter and the emitter reports connections to the tracker.
  let presence: PresenceTracker | undefined;
  // Where the desk's live count reads who is an operator (ADR 071): the embedded auth's column, or hosted GoTrue's
  // admin API (without its service-role key nobody joins, and the count is the page's, refreshed on navigation).
  const hosted = config.SUPABASE_URL ? hostedAppMetadata(config) : null;
  const roleStore = config.SUPABASE_URL ? (hosted ? hostedRoleStore(hosted) : null) : embeddedRoleStore;
  const realtime = attachRealtime(io, {
    authenticate: auth.authenticate,
    roomIdsOf: (userId) => listRoomIds({ db: database.db, userId }),
    deskChannelsOf: (user) => deskChannelsOf(database.db, { store: roleStore, user }),
    onConnect: (userId) => presence!.connected(userId),
    onDisconnect: (userId) => presence!.disconnected(userId),
    onEmit: (event, userIds) => {
      if (event === RealtimeEvent.chatMessage) metrics.chatMessage(userIds.length);
    },
  });
  presence = startPresenceTracker({ db: database.db, realtime });
  // A suspension or ban is decided in another process (`npm run moderation`), which has no sockets: it notifies the
  // user's id in its transaction, and every server process closes that user's sockets when it commits (ADR 030). A
  // device signed out from 「ログイン中の端末」 is notified the same way, with its session: only its sockets close.
  await database.listen(SESSIONS_ENDED_CHANNEL, (payload) => {
    if (!payload) return onDatabaseBack();
    const { userId, sessionId } = readSessionsEndedNotice(payload);
    realtime.disconnectUser(userId, { sessionId }).catch((error) => log.error({ err: error, userId, sessionId }, "auth: could not close the sockets of ended sessions"));
  });
  // The desk's live count of open reports (ADR 071): a report filed or decided anywhere, the command line included,
  // notifies in its transaction; this process tells its operators' sockets. A listener that was away counts on return.
  await database.listen(REPORTS_CHANGED_CHANNEL, openReportsAnnouncer({ db: database.db, realtime }));
  // Every chat message people type, whether it comes over a socket, the API or the plain form, is stored by group
  // commit (ADR 026).
  const chat = createChatSender({ db: database.db, realtime, concurrency: database.engine === "postgres" ? CHAT_SEND_POSTGRES_CONCURRENCY : 1 });
  attachChatSend(io, { chat, overload });
  attachRoomFocus(io, { db: database.db });
  return { realtime, presence, chat };
}

/**
 * What to do when the database is back after this process lost it (ADR 049): the sockets of sessions that ended while
 * no NOTIFY could reach it (a suspension decided the moment the database returned) are closed, and the sweeper runs
 * now, for what fell due meanwhile, rather than at its next interval.
 */
export function catchUpAfterDatabaseReturn({ io, auth, sweeper }: { io: SocketServer; auth: AuthService; sweeper: Sweeper }): () => void {
  return () => {
    void sweeper.runOnce();
    const sockets = [...io.of("/").sockets.values()].filter((socket) => socket.data.user);
    auth
      .endedAmong(sockets.map((socket) => socket.data.user as AuthUser))
      .then((ended) => {
        const users = new Set(ended);
        for (const socket of sockets) if (users.has(socket.data.user as AuthUser)) socket.disconnect(true);
      })
      .catch((error) => log.error({ err: error }, "auth: could not check the sockets' sessions after the database's return"));
  };
}
