import { io, type Socket } from "socket.io-client";

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
