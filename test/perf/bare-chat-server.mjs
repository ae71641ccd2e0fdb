// The baseline of `npm run bench:chat -- --ceiling --baseline`: what Socket.IO itself carries on this
// machine, with nothing of the app around it. node:http and Socket.IO with the app's settings (no Redis), the same
// rooms (a socket names the rooms it joins in its handshake), no authentication, no database: POST /send with
// `{ room, content }` emits `chat:message` to the room and answers 201 (or the `send` event, acknowledged). Started by the bench on a free port; it prints
// `bare: http://127.0.0.1:<port>` when it listens.
import http from "node:http";
import { Server } from "socket.io";

const server = http.createServer((request, response) => {
  if (request.method !== "POST" || request.url !== "/send") {
    response.writeHead(404).end();
    return;
  }
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    emit(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    response.writeHead(201, { "Content-Type": "application/json" }).end("{}");
  });
});

const io = new Server(server, { serveClient: false });
const emit = ({ room, content }) => io.to(room).emit("chat:message", { chatRoomId: room, content, createdAt: new Date().toISOString() });
io.on("connection", (socket) => {
  for (const room of socket.handshake.auth?.rooms ?? []) socket.join(room);
  // `--bare-via socket`: the same over the socket, answered by the acknowledgement, as the app's `chat:send`.
  socket.on("send", (message, ack) => {
    emit(message);
    ack({ status: 201 });
  });
  // The app says `ready` once a socket has joined its rooms; the bench waits for it.
  socket.emit("ready");
});

server.listen(0, "127.0.0.1", () => console.log(`bare: http://127.0.0.1:${server.address().port}`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => io.close(() => process.exit(0)));
