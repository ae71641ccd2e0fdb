import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { startCuttingProxy } from "../support/cutting-proxy";
import { collect, serverWithSockets, settle } from "../support/sockets";
import { createChatOutbox, newClientId, type ChatSendBody } from "../../app/routes/_chat.chat.$roomId/chat-outbox";
import type { Realtime } from "../../app/infra/realtime";
import { createApiClient } from "../../app/lib/api-client";
import { createChatSender } from "../../app/models/chat-sender.server";

// A chat send is safe to retry (ADR 051): every message carries the id its sender's app made, the
// server stores it once and answers a retry with the stored message, and the browser's outbox retries a send whose
// answer was lost, keeping the order. The answers are lost for real: a TCP proxy cuts the connection as the answer
// passes, after the server has committed.
const server = serverWithSockets({ seed: false });
let proxy: Awaited<ReturnType<typeof startCuttingProxy>>;
const opened: Socket[] = [];

beforeAll(async () => {
  const { hostname, port } = new URL(server.app.url);
  proxy = await startCuttingProxy({ host: hostname, port: Number(port) });
});
afterAll(async () => {
  for (const socket of opened) socket.close();
  await proxy.close();
});

async function directRoom(a: Member, b: Member) {
  const response = await a.api("/api/chat/rooms", { json: { participantIds: [b.id], type: "DIRECT", name: null } });
  return (await response.json()).data.chatRoom.id as string;
}

/** The member's socket through the proxy, reconnecting by itself as the browser's does (quickly, for the test). */
async function socketThroughProxy(member: Member) {
  const socket = io(proxy.url, { auth: { token: member.token }, transports: ["websocket"], forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 300 });
  opened.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", resolve);
    socket.once("connect_error", reject);
  });
  return socket;
}

/** The browser's API client for the member, through `base`, counting the requests it makes. */
function apiFor(member: Member, base: string) {
  const calls: string[] = [];
  const api = createApiClient({
    getAccessToken: () => member.token,
    fetch: (input, init) => {
      calls.push(String(input));
      return fetch(new URL(String(input), base), init);
    },
  });
  return { api, calls };
}

const storedWith = (clientId: string) =>
  server.app.database.db.selectFrom("chat_messages").select(["id", "content"]).where("client_id", "=", clientId).execute();

describe("a lost answer, retried", () => {
  it("over the socket: the acknowledgement is cut after the commit, the outbox sends again once reconnected, and the message is stored once", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const roomId = await directRoom(alice, bob);
    const bobSocket = await server.socketOf(bob);
    const toBob = collect<{ id: number }>(bobSocket, "chat:message");
    const socket = await socketThroughProxy(alice);
    const { api, calls } = apiFor(alice, server.app.url);
    const outbox = createChatOutbox({ socket: () => socket, api });
    let disconnects = 0;
    socket.on("disconnect", () => disconnects++);

    const cut = proxy.cutWhen('"status":201');
    const body: ChatSendBody = { roomId, content: "答えが届かなかったメッセージ", clientId: newClientId() };
    const sending = outbox.send(body);
    await cut;
    const message = await sending;

    expect(disconnects).toBe(1); // the answer was really lost with its connection
    expect(await storedWith(body.clientId)).toEqual([{ id: message.id, content: body.content }]);
    expect(message).toMatchObject({ id: message.id, content: body.content, clientId: body.clientId, sender: { displayName: "アリス" } });
    expect(calls).toEqual([]); // the retry went over the reconnected socket
    // The other member heard of it, as the same message each time (the retry announces it again: clients take it once
    // by its id).
    await settle();
    expect(toBob.length).toBeGreaterThanOrEqual(1);
    expect(new Set(toBob.map((event) => event.id))).toEqual(new Set([message.id]));
  });

  it("over the API: the 201 is cut after the commit, the client asks again, and the message is stored once", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const roomId = await directRoom(alice, bob);
    const { api, calls } = apiFor(alice, proxy.url);
    const outbox = createChatOutbox({ socket: () => null, api });

    const cut = proxy.cutWhen("HTTP/1.1 201");
    const body: ChatSendBody = { roomId, content: "APIの答えが切れた", clientId: newClientId() };
    const message = await outbox.send(body);
    await cut;

    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(await storedWith(body.clientId)).toEqual([{ id: message.id, content: body.content }]);
  });

  it("keeps the order across a reconnect: messages typed while the socket is down wait for it and go in the order typed", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const roomId = await directRoom(alice, bob);
    const socket = await socketThroughProxy(alice);
    const { api, calls } = apiFor(alice, server.app.url);
    const outbox = createChatOutbox({ socket: () => socket, api });
    const bodies = Array.from({ length: 6 }, (_, i): ChatSendBody => ({ roomId, content: `順番どおり${i}`, clientId: newClientId() }));

    const first = await outbox.send(bodies[0]!);
    // The connection drops; while it is down, the next five are typed. The third one's answer is lost too.
    proxy.cutAll();
    const cutAgain = proxy.cutWhen('"content":"順番どおり3"');
    const rest = bodies.slice(1).map((body) => outbox.send(body));
    expect(outbox.waiting()).toBeGreaterThanOrEqual(3);
    const answers = [first, ...(await Promise.all(rest))];
    await cutAgain;

    const rows = await server.app.database.db
      .selectFrom("chat_messages")
      .select(["id", "content"])
      .where("room_id", "=", roomId)
      .orderBy("id")
      .execute();
    expect(rows.map((row) => row.content)).toEqual(bodies.map((body) => body.content));
    expect(answers.map((answer) => answer.id)).toEqual(rows.map((row) => row.id));
    expect(calls).toEqual([]); // all over the socket once it was back
  });
});

describe("stored once per client id", () => {
  function recordingRealtime() {
    const events: number[] = [];
    const realtime: Realtime = { toUsers: (_users, _event, payload) => void events.push((payload as { id: number }).id), joinRoom: () => {}, disconnectUser: async () => {} };
    return { realtime, events };
  }

  it("answers a retry with the stored message and no second event, and refuses the id on another text with 409", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const roomId = await directRoom(alice, bob);
    const clientId = newClientId();
    const send = (content: string) => alice.api("/api/chat/messages", { json: { roomId, content, clientId } });

    const first = await send("一度だけ");
    expect(first.status).toBe(201);
    const stored = (await first.json()).data.message;
    const again = await send("一度だけ");
    expect(again.status).toBe(201);
    expect((await again.json()).data.message).toEqual(stored);
    // In capitals, as some clients write UUIDs: the same id.
    const shouted = await alice.api("/api/chat/messages", { json: { roomId, content: "一度だけ", clientId: clientId.toUpperCase() } });
    expect((await shouted.json()).data.message.id).toBe(stored.id);

    const reused = await send("別の文");
    expect(reused.status).toBe(409);
    expect(await reused.json()).toMatchObject({ success: false, error: { code: "client_id_reused", message: "送信内容を確認できませんでした。ページを再読み込みしてからもう一度お試しください" } });
    expect(await storedWith(clientId)).toEqual([{ id: stored.id, content: "一度だけ" }]);
    // Another sender may use the same id: it is unique per sender.
    const bobsRoom = await bob.api("/api/chat/messages", { json: { roomId, content: "ボブの", clientId } });
    expect(bobsRoom.status).toBe(201);

    // A retry is not counted against the rate limit (10 in 10 s): eight more messages and twenty retries all pass.
    for (let i = 0; i < 8; i++) expect((await alice.api("/api/chat/messages", { json: { roomId, content: `上限まで${i}` } })).status).toBe(201);
    const retries = await Promise.all(Array.from({ length: 20 }, () => send("一度だけ")));
    expect(retries.map((response) => response.status)).toEqual(Array(20).fill(201));
  });

  it("two replicas given the same message at the same moment store it once and answer both with it", async () => {
    // A sender per round: two statements that meet in the unique index have each counted the message against the
    // sender's rate limit (the loser's count is the price of not waiting for a lock before every message).
    const bob = await createMember(server.app);
    const senders = await Promise.all(Array.from({ length: 10 }, () => createMember(server.app)));
    const rooms = await Promise.all(senders.map((sender) => directRoom(sender, bob)));
    const db = server.app.database.db;
    const one = recordingRealtime();
    const two = recordingRealtime();
    const replicas = [createChatSender({ db, realtime: one.realtime }), createChatSender({ db, realtime: two.realtime })];
    for (let round = 0; round < 10; round++) {
      const input = { senderId: senders[round]!.id, sessionId: null, roomId: rooms[round]!, content: `同時${round}`, clientId: newClientId() };
      const outcomes = await Promise.all(replicas.map((chat) => chat.send(input)));
      const ids = outcomes.map((outcome) => ("message" in outcome ? outcome.message.id : outcome.refusal.code));
      expect(ids[0], `round ${round}`).toBe(ids[1]);
      expect(await storedWith(input.clientId)).toEqual([{ id: ids[0], content: input.content }]);
    }
    // Each stored message was announced, by one replica or both.
    expect(new Set([...one.events, ...two.events]).size).toBe(10);
  });

  it("a retry announces the message again: a replica that died between its commit and its event leaves nobody unaware", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const roomId = await directRoom(alice, bob);
    const db = server.app.database.db;
    // The first replica stores the message and dies before its event goes out (its emitter never runs).
    const dying = createChatSender({ db, realtime: { toUsers: () => {}, joinRoom: () => {}, disconnectUser: async () => {} } });
    const survivor = recordingRealtime();
    const input = { senderId: alice.id, sessionId: null, roomId, content: "落ちる前に保存", clientId: newClientId() };
    const first = await dying.send(input);
    expect("message" in first).toBe(true);
    const heard: Array<{ users: readonly string[]; id: number }> = [];
    const retried = await createChatSender({
      db,
      realtime: { ...survivor.realtime, toUsers: (users, _event, payload) => void heard.push({ users, id: (payload as { id: number }).id }) },
    }).send(input);
    expect("message" in retried && retried.message.id).toBe("message" in first && first.message.id);
    expect(heard).toEqual([{ users: [alice.id, bob.id], id: "message" in first ? first.message.id : NaN }]);
  });

  it("the plain form posted twice with the same page's id (the browser retrying) stores one message", async () => {
    const [alice, bob] = await Promise.all([createBrowserMember(server.app), createMember(server.app)]);
    const roomId = await directRoom(alice, bob);
    const page = await (await alice.page(`/chat/${roomId}`)).text();
    const clientId = /name="clientId" value="([0-9a-f-]{36})"/.exec(page)?.[1];
    expect(clientId).toBeDefined();
    const post = () =>
      alice.page(`/chat/${roomId}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ content: "フォームから二度", clientId: clientId! }),
      });
    expect((await post()).status).toBe(302);
    expect((await post()).status).toBe(302);
    expect(await storedWith(clientId!)).toHaveLength(1);
    // The next page has a new id for the next message.
    const next = await (await alice.page(`/chat/${roomId}`)).text();
    expect(/name="clientId" value="([0-9a-f-]{36})"/.exec(next)?.[1]).not.toBe(clientId);
  });
});
