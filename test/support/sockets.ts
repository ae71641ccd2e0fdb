import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll } from "vitest";
import { startTestServer, type TestServer } from "./server";

/** A socket.io-client connection authenticated as a member, resolved once the server has joined its rooms. */
export async function connectSocket(url: string, token: string | undefined) {
  const socket = io(url, { auth: token ? { token } : {}, transports: ["websocket"], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", resolve);
    socket.once("connect_error", reject);
  });
  return socket;
}

/** Collects every payload of an event on the socket. */
export function collect<T = unknown>(socket: Socket, event: string) {
  const received: T[] = [];
  socket.on(event, (payload: T) => received.push(payload));
  return received;
}

export const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sockets a test file opens for its members; `closeAll` in its afterAll. */
export function socketPool(url: () => string) {
  const open: Socket[] = [];
  return {
    async connect(member: { token: string }) {
      const socket = await connectSocket(url(), member.token);
      open.push(socket);
      return socket;
    },
    closeAll: () => open.splice(0).forEach((socket) => socket.close()),
  };
}

/**
 * A test file's own server (started before its tests, closed after them) and the sockets its members open,
 * closed first.
 */
export function serverWithSockets(options: Parameters<typeof startTestServer>[0]) {
  let app: TestServer | undefined;
  const sockets = socketPool(() => server.app.url);
  const server = {
    get app() {
      if (!app) throw new Error("the test server starts in beforeAll");
      return app;
    },
    socketOf: sockets.connect,
  };
  beforeAll(async () => {
    app = await startTestServer(options);
  });
  afterAll(async () => {
    sockets.closeAll();
    await app?.close();
  });
  return server;
}
