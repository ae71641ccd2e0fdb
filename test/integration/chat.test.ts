import { describe, expect, it } from "vitest";
import { createMember, type Member } from "../support/auth";
import { collect, connectSocket, settle, serverWithSockets } from "../support/sockets";

const server = serverWithSockets({ seed: false });
const { socketOf } = server;

async function directRoom(a: Member, b: Member) {
  const response = await a.api("/api/chat/rooms", { json: { participantIds: [b.id], type: "DIRECT", name: null } });
  const body = await response.json();
  return { response, body, roomId: body.data.chatRoom.id as string };
}

const send = (member: Member, roomId: string, content: string) =>
  member.api("/api/chat/messages", { json: { roomId, content, messageType: "TEXT", metadata: null } });

describe("sockets", () => {
  it("refuse a handshake without a valid token", async () => {
    await expect(connectSocket(server.app.url, undefined)).rejects.toThrow("unauthorized");
    await expect(connectSocket(server.app.url, "not-a-token")).rejects.toThrow("unauthorized");
  });
});

describe("direct chat", () => {
  it("two users exchange messages over the API and each socket receives the other's chat:message; a third gets 404 and nothing", async () => {
    const [alice, bob, eve] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ"), createMember(server.app, "イヴ")]);
    const [aliceSocket, bobSocket, eveSocket] = await Promise.all([socketOf(alice), socketOf(bob), socketOf(eve)]);
    const toAlice = collect<{ content: string; sender: { displayName: string } }>(aliceSocket, "chat:message");
    const toBob = collect<{ content: string; chatRoomId: string }>(bobSocket, "chat:message");
    const toEve = collect(eveSocket, "chat:message");

    const { roomId, body } = await directRoom(alice, bob);
    expect(body.data.isNew).toBe(true);
    expect(body.data.chatRoom).toMatchObject({ type: "DIRECT", participantIds: expect.arrayContaining([alice.id, bob.id]), unreadCount: 0 });

    const sent = await send(alice, roomId, "こんにちは！一緒にAPEXやりませんか");
    expect(sent.status).toBe(201);
    const { message } = (await sent.json()).data;
    expect(message).toMatchObject({
      content: "こんにちは！一緒にAPEXやりませんか",
      messageType: "TEXT",
      chatRoomId: roomId,
      sender: { uid: alice.id, supabaseId: alice.id, displayName: "アリス" },
    });
    expect((await send(bob, roomId, "いいですね、21時からどうですか")).status).toBe(201);
    await settle();

    expect(toBob.map((m) => m.content)).toEqual(["こんにちは！一緒にAPEXやりませんか", "いいですね、21時からどうですか"]);
    expect(toAlice.map((m) => m.content)).toEqual(["こんにちは！一緒にAPEXやりませんか", "いいですね、21時からどうですか"]);
    expect(toEve).toEqual([]);

    // The outsider learns nothing, not even that the room exists.
    expect((await eve.api(`/api/chat/messages?roomId=${roomId}`)).status).toBe(404);
    expect((await send(eve, roomId, "のぞき見")).status).toBe(404);
    expect((await eve.api(`/api/chat/rooms/${roomId}/mark-read`, { method: "POST" })).status).toBe(404);
    await settle();
    expect(toEve).toEqual([]);
    expect((await (await eve.api("/api/chat/rooms")).json()).data.chatRooms).toEqual([]);
  });

  it("creating the DIRECT room twice returns the same room with isNew false", async () => {
    const [a, b] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const first = await directRoom(a, b);
    const second = await directRoom(b, a);
    expect(second.response.status).toBe(200);
    expect(second.body.data.isNew).toBe(false);
    expect(second.roomId).toBe(first.roomId);
    const [x, y] = await Promise.all([directRoom(a, b), directRoom(a, b)]);
    expect(x.roomId).toBe(first.roomId);
    expect(y.roomId).toBe(first.roomId);
  });

  it("a user joins a new room's channel at once: the first message reaches a socket opened before the room existed", async () => {
    const [a, b] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const bSocket = await socketOf(b);
    const received = collect<{ content: string }>(bSocket, "chat:message");
    const { roomId } = await directRoom(a, b);
    await send(a, roomId, "はじめまして");
    await settle();
    expect(received.map((m) => m.content)).toEqual(["はじめまして"]);
  });

  it("keeps content as text and enforces its limits", async () => {
    const [a, b] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const { roomId } = await directRoom(a, b);
    const html = '<img src=x onerror="alert(1)">';
    const sent = await (await send(a, roomId, html)).json();
    expect(sent.data.message.content).toBe(html);
    expect((await send(a, roomId, "   ")).status).toBe(400);
    expect((await send(a, roomId, "あ".repeat(1001))).status).toBe(400);
    expect((await send(a, roomId, "あ".repeat(1000))).status).toBe(201);
    const system = await a.api("/api/chat/messages", { json: { roomId, content: "x", messageType: "ticket_purchased", metadata: null } });
    expect(system.status).toBe(400);
  });

  it("limits a sender to 10 messages in 10 seconds", async () => {
    const [a, b] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const { roomId } = await directRoom(a, b);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await send(a, roomId, `連投${i}`)).status);
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
    const limited = await send(a, roomId, "もう一通");
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.message).toBe("メッセージの送信が多すぎます。少し待ってから再度お試しください。");
  });

  it("keeps the limit exact when a sender's messages race: 25 at once, to two rooms, store exactly 10", async () => {
    const [a, b, c] = await Promise.all([createMember(server.app), createMember(server.app), createMember(server.app)]);
    const [first, second] = await Promise.all([directRoom(a, b), directRoom(a, c)]);
    const statuses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => send(a, i % 2 ? first.roomId : second.roomId, `同時${i}`).then((response) => response.status)),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    const stored = await server.app.database.db
      .selectFrom("chat_messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("sender_id", "=", a.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(10);
  });
});

describe("paging", () => {
  it("returns every message exactly once, in order, across pages, with messages arriving between pages", async () => {
    const [a, b] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const { roomId } = await directRoom(a, b);
    // Insert directly: the rate limit is not what this test is about.
    const insert = (from: number, to: number) =>
      server.app.database.db
        .insertInto("chat_messages")
        .values(Array.from({ length: to - from }, (_, i) => ({ room_id: roomId, sender_id: i % 2 ? a.id : b.id, content: `m${from + i}` })))
        .execute();
    await insert(0, 75);

    const seen: string[] = [];
    let before: number | undefined;
    let page = 0;
    for (;;) {
      const response = await b.api(`/api/chat/messages?roomId=${roomId}${before ? `&before=${before}` : ""}`);
      const { messages, hasMore } = (await response.json()).data as { messages: Array<{ id: number; content: string }>; hasMore: boolean };
      expect(messages.length).toBeLessThanOrEqual(30);
      const ids = messages.map((m) => m.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      seen.unshift(...messages.map((m) => m.content));
      if (page++ === 0) await insert(75, 80); // newer messages arrive while the reader scrolls back
      if (!hasMore) break;
      before = messages[0]!.id;
    }
    expect(seen).toEqual(Array.from({ length: 75 }, (_, i) => `m${i}`));
    expect(new Set(seen).size).toBe(75);
  });
});

describe("unread counts", () => {
  it("go up on receipt and to zero on mark-read, per room and in total", async () => {
    const [me, friend1, friend2] = await Promise.all([createMember(server.app), createMember(server.app), createMember(server.app)]);
    const room1 = (await directRoom(friend1, me)).roomId;
    const room2 = (await directRoom(friend2, me)).roomId;
    await send(me, room1, "自分の送信は未読にならない");
    await send(friend1, room1, "1");
    await send(friend1, room1, "2");
    await send(friend2, room2, "3");

    const total = async () => (await (await me.api("/api/chat/unread-count")).json()).unreadCount;
    const perRoom = async () =>
      Object.fromEntries(((await (await me.api("/api/chat/rooms?limit=20&offset=0")).json()).data.chatRooms as Array<{ id: string; unreadCount: number }>).map((r) => [r.id, r.unreadCount]));
    expect(await total()).toBe(3);
    expect(await perRoom()).toEqual({ [room1]: 2, [room2]: 1 });

    expect((await me.api(`/api/chat/rooms/${room1}/mark-read`, { method: "POST" })).status).toBe(200);
    expect(await total()).toBe(1);
    expect(await perRoom()).toEqual({ [room1]: 0, [room2]: 1 });
    // Replying in a room reads it, as in any messenger.
    await send(me, room2, "返信");
    expect(await total()).toBe(0);
  });

  it("lists rooms newest activity first with their last message, paged by limit and offset", async () => {
    const [me, x, y] = await Promise.all([createMember(server.app), createMember(server.app), createMember(server.app)]);
    const rx = (await directRoom(me, x)).roomId;
    const ry = (await directRoom(me, y)).roomId;
    await send(x, rx, "新しい方");
    const rooms = (await (await me.api("/api/chat/rooms?limit=20&offset=0")).json()).data.chatRooms;
    expect(rooms.map((r: { id: string }) => r.id)).toEqual([rx, ry]);
    expect(rooms[0].lastMessage.content).toBe("新しい方");
    expect(rooms[1].lastMessage).toBeNull();
    const second = (await (await me.api("/api/chat/rooms?limit=1&offset=1")).json()).data.chatRooms;
    expect(second.map((r: { id: string }) => r.id)).toEqual([ry]);
  });
});

describe("blocking", () => {
  it("a blocked user's send is refused in Japanese and nothing reaches the blocker", async () => {
    const [blocker, pest] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const blockerSocket = await socketOf(blocker);
    const received = collect(blockerSocket, "chat:message");
    const { roomId } = await directRoom(pest, blocker);
    expect((await blocker.api(`/api/users/${pest.id}/block`, { method: "POST" })).status).toBe(200);

    const refused = await send(pest, roomId, "無視しないで");
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toBe("このユーザーにはメッセージを送信できません");
    const newRoom = await pest.api("/api/chat/rooms", { json: { participantIds: [blocker.id], type: "DIRECT", name: null } });
    expect(newRoom.status).toBe(403);
    await settle();
    expect(received).toEqual([]);
    expect(await (await blocker.api("/api/chat/unread-count")).json()).toMatchObject({ unreadCount: 0 });

    expect((await blocker.api(`/api/users/${pest.id}/block`, { method: "DELETE" })).status).toBe(200);
    expect((await send(pest, roomId, "ごめんなさい")).status).toBe(201);
  });

  it("answers 404 for someone who does not exist", async () => {
    const me = await createMember(server.app);
    expect((await me.api("/api/users/00000000-0000-4000-8000-00000000abcd/block", { method: "POST" })).status).toBe(404);
    expect((await me.api("/api/users/not-a-uuid/block", { method: "POST" })).status).toBe(404);
  });
});
