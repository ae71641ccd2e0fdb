// Holds the bench's realtime connections in a process of their own (bench:scale), so that the process measuring
// requests is not the one running 2,000 sockets' timers, events and collections: its own event loop stalled 20–95 ms
// when it held them, and each stall was added to the request it was timing.
//
// Input on stdin, one JSON line: { "base": URL, "tokens": [access tokens], "count": N }. It opens N sockets, 50 at a
// time, dealt over the tokens, and prints `open N`; then each `count` line on stdin answers `connected N`. It closes
// them and exits when stdin ends.
import readline from "node:readline";
import { io } from "socket.io-client";

const lines = readline.createInterface({ input: process.stdin });
const sockets = [];
let opened = false;

for await (const line of lines) {
  if (!opened) {
    opened = true;
    const { base, tokens, count } = JSON.parse(line);
    for (let i = 0; i < count; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, (_, j) => {
          const socket = io(base, { auth: { token: tokens[(i + j) % tokens.length] }, transports: ["websocket"], reconnection: false, forceNew: true });
          sockets.push(socket);
          return new Promise((resolve, reject) => {
            socket.once("connect", () => resolve());
            socket.once("connect_error", (error) => reject(new Error(`a socket was refused: ${error.message}`)));
          });
        }),
      );
    }
    process.stdout.write(`open ${sockets.length}\n`);
  } else if (line === "count") {
    process.stdout.write(`connected ${sockets.filter((socket) => socket.connected).length}\n`);
  }
}
for (const socket of sockets) socket.close();
