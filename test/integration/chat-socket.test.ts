import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { createMember, type Member } from "../support/auth";
import { collect, settle, serverWithSockets } from "../support/sockets";
import type { Realtime } from "../../app/infra/realtime";
import { createChatSender, type ChatSendInput } from "../../app/models/chat-sender.server";

// Messages sent over the socket (`chat:send`, ADR 026) and the group commit behind every way of sending.
const server = serverWithSockets({ seed: false });
const { socketOf } = server;

async function directRoom(a: Member, b: Member) {
  const response = await a.api("/api/chat/rooms", { json: { participantIds: [b.id], type: "DIRECT", name: null } });
  return (await response.json()).data.chatRoom.id as string;
}

type Ack = { status: number; success: boolean; data?: { message: { id: number; content: string } }; error?: { code: string; message: string } };
const socketSend = (socket: Socket, roomId: string, content: string) =>
  socket.timeout(5_000).emitWithAck("chat:send", { roomId, content, messageType: "TEXT", metadata: null }) as Promise<Ack>;

const stored = (content: string) =>
  server.app.database.db.selectFrom("chat_messages").select(["id", "created_at"]).where("content", "=", content).execute();

describe("chat:send over the socket", () => {
  it("stores the message before answering, then the other member's sockets and the sender's other tabs hear of it", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const [aliceTab1, aliceTab2, bobSocket] = await Promise.all([socketOf(alice), socketOf(alice), socketOf(bob)]);
    const roomId = await directRoom(alice, bob);
    const toBob = collect<{ id: number; content: string }>(bobSocket, "chat:message");
    const toAliceTab2 = collect<{ id: number }>(aliceTab2, "chat:message");

    const ack = await socketSend(aliceTab1, roomId, "ソケットからこんにちは");
    expect(ack).toMatchObject({ status: 201, success: true, data: { message: { content: "ソケットからこんにちは", sender: { uid: alice.id, displayName: "アリス" } } } });
    // Answered after the commit: the row is there (on PostgreSQL, read through another connection of the pool).
    expect((await stored("ソケットからこんにちは")).map((row) => row.id)).toEqual([ack.data!.message.id]);
    await settle();
    expect(toBob.map((m) => m.id)).toEqual([ack.data!.message.id]);
    expect(toAliceTab2.map((m) => m.id)).toEqual([ack.data!.message.id]);
    // The same message the API lists.
    const listed = await (await bob.api(`/api/chat/messages?roomId=${roomId}`)).json();
    expect(listed.data.messages.map((m: { id: number }) => m.id)).toEqual([ack.data!.message.id]);
  });

  it("refuses what the API refuses, with the same statuses and Japanese messages", async () => {
    const [alice, bob, eve] = await Promise.all([createMember(server.app), createMember(server.app), createMember(server.app)]);
    const [aliceSocket, eveSocket] = await Promise.all([socketOf(alice), socketOf(eve)]);
    const roomId = await directRoom(alice, bob);

    expect(await socketSend(aliceSocket, roomId, "   ")).toMatchObject({ status: 400, success: false, error: { code: "invalid_input" } });
    const tooLong = await aliceSocket.timeout(5_000).emitWithAck("chat:send", { roomId, content: "あ".repeat(1001) });
    expect(tooLong).toMatchObject({ status: 400, error: { code: "invalid_input" } });
    expect(await aliceSocket.timeout(5_000).emitWithAck("chat:send", "not an object")).toMatchObject({ status: 400 });
    // Someone else's room, and a room that does not exist, are the same 404.
    expect(await socketSend(eveSocket, roomId, "のぞき見")).toMatchObject({ status: 404, error: { code: "room_not_found", message: "リソースが見つかりません" } });
    expect(await socketSend(eveSocket, "00000000-0000-4000-8000-000000000000", "どこ？")).toMatchObject({ status: 404 });
    expect(await stored("のぞき見")).toEqual([]);

    // The per-sender limit holds over both ways of sending together: 10 in 10 seconds.
    const viaSocket = Array.from({ length: 6 }, (_, i) => socketSend(aliceSocket, roomId, `上限ソケット${i}`));
    const viaApi = Array.from({ length: 6 }, (_, i) => alice.api("/api/chat/messages", { json: { roomId, content: `上限API${i}` } }));
    const socketStatuses = (await Promise.all(viaSocket)).map((ack) => ack.status);
    const apiStatuses = (await Promise.all(viaApi)).map((response) => response.status);
    const statuses = [...socketStatuses, ...apiStatuses];
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    const refused = (await Promise.all(viaSocket)).find((ack) => ack.status === 429) ?? (await (await Promise.all(viaApi)).find((r) => r.status === 429)!.json());
    expect(refused.error.message).toBe("メッセージの送信が多すぎます。少し待ってから再度お試しください。");
    const count = await server.app.database.db
      .selectFrom("chat_messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("room_id", "=", roomId)
      .where("sender_id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10);
  });

  it("a blocked user's socket send is refused and stored nowhere, and the blocker hears nothing", async () => {
    const [blocker, pest] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const [blockerSocket, pestSocket] = await Promise.all([socketOf(blocker), socketOf(pest)]);
    const received = collect(blockerSocket, "chat:message");
    const roomId = await directRoom(pest, blocker);
    expect((await blocker.api(`/api/users/${pest.id}/block`, { method: "POST" })).status).toBe(200);

    const ack = await socketSend(pestSocket, roomId, "ソケットなら届く？");
    expect(ack).toMatchObject({ status: 403, success: false, error: { code: "blocked", message: "このユーザーにはメッセージを送信できません" } });
    expect(await stored("ソケットなら届く？")).toEqual([]);
    const window = await server.app.database.db.selectFrom("rate_limit_windows").select("stamps").where("bucket", "=", `chat:user:${pest.id}`).executeTakeFirst();
    expect(window).toBeUndefined(); // a refused message is not counted against the sender either
    await settle();
    expect(received).toEqual([]);
  });

  it("a revoked session's socket can no longer send, at once", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app), createMember(server.app)]);
    const aliceSocket = await socketOf(alice);
    const roomId = await directRoom(alice, bob);
    expect((await socketSend(aliceSocket, roomId, "ログアウト前")).status).toBe(201);

    // Signing out of this session revokes the one the socket was opened with; the socket itself stays connected.
    const signOut = await server.app.request("/auth/v1/logout?scope=local", { method: "POST", headers: { Authorization: `Bearer ${alice.token}` } });
    expect(signOut.status).toBe(204);
    expect(aliceSocket.connected).toBe(true);
    const ack = await socketSend(aliceSocket, roomId, "ログアウト後");
    expect(ack).toMatchObject({ status: 401, success: false, error: { code: "unauthorized", message: "認証が必要です" } });
    expect(await stored("ログアウト後")).toEqual([]);
    // The API refuses the token too.
    expect((await alice.api("/api/chat/messages", { json: { roomId, content: "APIから" } })).status).toBe(401);
  });

  it("signing out everywhere closes the account's sockets on the spot", async () => {
    const alice = await createMember(server.app);
    const aliceSocket = await socketOf(alice);
    const signOut = await server.app.request("/auth/v1/logout?scope=global", { method: "POST", headers: { Authorization: `Bearer ${alice.token}` } });
    expect(signOut.status).toBe(204);
    await expect.poll(() => aliceSocket.connected, { timeout: 1_000 }).toBe(false);
  });
});

describe("group commit", () => {
  /** A realtime emitter that notes what it was asked to send (no sockets here). */
  function recordingRealtime() {
    const sent: Array<{ userIds: readonly string[]; payload: { id: number } }> = [];
    const realtime: Realtime = {
      toUsers: (userIds, _event, payload) => void sent.push({ userIds, payload: payload as { id: number } }),
      joinRoom: () => {},
      disconnectUser: async () => {},
    };
    return { realtime, sent };
  }

  /** `count` senders, each in a DIRECT room with the same listener. */
  async function senders(count: number) {
    const listener = await createMember(server.app);
    return Promise.all(
      Array.from({ length: count }, async () => {
        const member = await createMember(server.app);
        return { member, roomId: await directRoom(member, listener) };
      }),
    );
  }

  it("stores messages that arrive together in one statement and answers each only after its commit", async () => {
    const people = await senders(5);
    const groups: Array<{ size: number; ok: boolean }> = [];
    const { realtime, sent } = recordingRealtime();
    const chat = createChatSender({ db: server.app.database.db, realtime, onGroup: (group) => groups.push(group) });
    const db = server.app.database.db;
    const seenAtAnswer = await Promise.all(
      people.map(async ({ member, roomId }, i) => {
        const outcome = await chat.send({ senderId: member.id, sessionId: null, roomId, content: `まとめて${i}` });
        if (!("message" in outcome)) throw new Error(`refused: ${outcome.refusal.code}`);
        // When the answer comes, the message is committed and its event has been handed to the emitter.
        const row = await db.selectFrom("chat_messages").select("id").where("id", "=", outcome.message.id).executeTakeFirst();
        return { row, announced: sent.some((event) => event.payload.id === outcome.message.id) };
      }),
    );
    expect(groups).toEqual([{ size: 5, ok: true, ms: expect.any(Number) }]);
    expect(seenAtAnswer.every(({ row, announced }) => row && announced)).toBe(true);
    // One transaction: one clock reading for all five.
    const rows = await db.selectFrom("chat_messages").select("created_at").where("content", "like", "まとめて%").execute();
    expect(new Set(rows.map((row) => row.created_at.getTime())).size).toBe(1);
    expect(rows).toHaveLength(5);
  });

  it("keeps each sender's messages in order and one per statement, so the rate limit stays exact", async () => {
    const [{ member, roomId }] = await senders(1);
    const groups: number[] = [];
    const chat = createChatSender({ db: server.app.database.db, realtime: recordingRealtime().realtime, onGroup: (group) => groups.push(group.size) });
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => chat.send({ senderId: member.id, sessionId: null, roomId, content: `順番${i}` })));
    expect(outcomes.map((outcome) => ("message" in outcome ? 201 : outcome.refusal.status))).toEqual([...Array(10).fill(201), 429, 429]);
    const ids = outcomes.flatMap((outcome) => ("message" in outcome ? [outcome.message.id] : []));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(groups).toEqual(Array(12).fill(1));
  });

  it("answers none of a group whose commit fails, and stores none of it", async () => {
    const people = await senders(4);
    const groups: Array<{ size: number; ok: boolean }> = [];
    const { realtime, sent } = recordingRealtime();
    const chat = createChatSender({ db: server.app.database.db, realtime, onGroup: (group) => groups.push(group) });
    // The last one breaks the table's check on message_type, which fails the statement and so the whole group.
    const inputs: ChatSendInput[] = people.map(({ member, roomId }, i) => ({
      senderId: member.id,
      sessionId: null,
      roomId,
      content: `失敗する組${i}`,
      ...(i === 3 ? { messageType: "BOGUS" as never } : {}),
    }));
    const settled = await Promise.allSettled(inputs.map((input) => chat.send(input)));
    expect(settled.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    expect(groups).toEqual([{ size: 4, ok: false, ms: expect.any(Number) }]);
    expect(sent).toEqual([]);
    expect(await server.app.database.db.selectFrom("chat_messages").select("id").where("content", "like", "失敗する組%").execute()).toEqual([]);
    // Nor counted against the senders' limits: the statement is atomic.
    const windows = await server.app.database.db
      .selectFrom("rate_limit_windows")
      .select("bucket")
      .where("bucket", "in", people.map(({ member }) => `chat:user:${member.id}`))
      .execute();
    expect(windows).toEqual([]);
    // The sender works on: the next group commits.
    const next = await chat.send({ ...inputs[0]!, content: "次は大丈夫" });
    expect("message" in next).toBe(true);
    await chat.drain();
  });
});
