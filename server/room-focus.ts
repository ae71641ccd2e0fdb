import type { Server as SocketServer } from "socket.io";
import type { AuthUser } from "../app/infra/auth/session";
import type { Database } from "../app/infra/db/tables";
import { log } from "../app/infra/logger.server";
import { ClientEvent } from "../app/lib/realtime-events";
import { roomFocusSchema } from "../app/lib/validation/push";
import { setFocusedRoom } from "../app/models/push.server";

/**
 * `chat:focus`: the chat room a tab shows while it is focused and visible, or null once it is not (ADR 052). Written
 * where every replica's push producers read it (`user_presence.focused_room_id`), in the order the tab said it, and
 * cleared when the socket closes. A failure is logged: at worst a push arrives that the open room made needless.
 */
export function attachRoomFocus(io: SocketServer, { db }: { db: Database }) {
  io.on("connection", (socket) => {
    const userId = (socket.data.user as AuthUser).id;
    let focused = false;
    let writes = Promise.resolve();
    const write = (roomId: string | null) => {
      writes = writes
        .then(() => setFocusedRoom({ db, userId, socketId: socket.id, roomId }))
        .catch((error: unknown) => log.warn({ err: error, userId }, "push: could not note the focused chat room"));
    };
    socket.on(ClientEvent.chatFocus, (payload: unknown) => {
      const parsed = roomFocusSchema.safeParse(payload);
      if (!parsed.success) return;
      focused = parsed.data.roomId !== null;
      write(parsed.data.roomId);
    });
    socket.on("disconnect", () => {
      if (focused) write(null);
    });
  });
}
