import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { serverWithSockets } from "../support/sockets";

// The off-platform payment warning (docs/product.md#trust-and-safety): what is sent is stored, and a matching text is
// counted in off_platform_flags; the plain forms ask first.
const server = serverWithSockets({ seed: false });
const { socketOf } = server;
const db = () => server.app.database.db;

const LURE = "手数料かからないので、PayPayで送金してください";
const LURE_POST = "直接取引しませんか？ 振込先は普通 １２３ー４５６７ です";

async function directRoom(a: Member, b: Member) {
  const response = await a.api("/api/chat/rooms", { json: { participantIds: [b.id], type: "DIRECT", name: null } });
  return (await response.json()).data.chatRoom.id as string;
}

type Ack = { status: number; success: boolean; data?: { message: { id: number; content: string } } };
const socketSend = (socket: Socket, body: Record<string, unknown>) => socket.timeout(5_000).emitWithAck("chat:send", body) as Promise<Ack>;

const flagsOf = (userId: string) =>
  db().selectFrom("off_platform_flags").select(["target_type", "target_id"]).where("user_id", "=", userId).orderBy("id").execute();
const messagesOf = (userId: string) => db().selectFrom("chat_messages").select(["id", "content"]).where("sender_id", "=", userId).orderBy("id").execute();
const postsOf = (userId: string) => db().selectFrom("posts").select(["id", "content"]).where("author_id", "=", userId).orderBy("created_at").execute();

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});
const multipart = (fields: Record<string, string>) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return { method: "POST", body };
};

describe("off-platform payment messages in chat", () => {
  it("a matching message sent with the confirmation over the socket and the API is stored and counted; others are not counted", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const roomId = await directRoom(alice, bob);
    const socket = await socketOf(alice);

    const viaSocket = await socketSend(socket, { roomId, content: LURE, offPlatformConfirmed: true });
    expect(viaSocket).toMatchObject({ status: 201, success: true, data: { message: { content: LURE } } });
    const viaApi = await alice.api("/api/chat/messages", { json: { roomId, content: "ＬＩＮＥ Ｐａｙで払って", offPlatformConfirmed: true } });
    expect(viaApi.status).toBe(201);
    const apiMessage = (await viaApi.json()).data.message as { id: number };
    // Ordinary talk is stored and not counted, over either way.
    expect((await socketSend(socket, { roomId, content: "振り返りしましょう" })).status).toBe(201);
    expect((await alice.api("/api/chat/messages", { json: { roomId, content: "7時にログインします" } })).status).toBe(201);
    // A client that skips the warning: stored and counted all the same (the warning is the app's).
    const unconfirmed = await alice.api("/api/chat/messages", { json: { roomId, content: "口座番号を教えます" } });
    expect(unconfirmed.status).toBe(201);
    const unconfirmedId = ((await unconfirmed.json()).data.message as { id: number }).id;
    // A bad flag is a 400 like any bad field.
    expect((await alice.api("/api/chat/messages", { json: { roomId, content: LURE, offPlatformConfirmed: "yes" } })).status).toBe(400);

    expect((await messagesOf(alice.id)).map((m) => m.content)).toEqual([LURE, "ＬＩＮＥ Ｐａｙで払って", "振り返りしましょう", "7時にログインします", "口座番号を教えます"]);
    expect(await flagsOf(alice.id)).toEqual([
      { target_type: "chat_message", target_id: String(viaSocket.data!.message.id) },
      { target_type: "chat_message", target_id: String(apiMessage.id) },
      { target_type: "chat_message", target_id: String(unconfirmedId) },
    ]);
    expect(await flagsOf(bob.id)).toEqual([]);
  });

  it("a group commit holding matching and ordinary messages from several senders counts exactly the matching ones", async () => {
    const members = await Promise.all(Array.from({ length: 4 }, (_, i) => createMember(server.app, `送り手${i}`)));
    const host = await createMember(server.app, "部屋の人");
    const rooms = await Promise.all(members.map((member) => directRoom(member, host)));
    const sockets = await Promise.all(members.map((member) => socketOf(member)));
    const texts = ["アマギフ5000円分でOK", "よろしくお願いします！", "サイト外でやりませんか", "ランク振り分けどうする？"];
    const acks = await Promise.all(sockets.map((socket, i) => socketSend(socket, { roomId: rooms[i], content: texts[i], offPlatformConfirmed: i % 2 === 0 })));
    expect(acks.map((ack) => ack.status)).toEqual([201, 201, 201, 201]);
    const counted = await Promise.all(members.map((member) => flagsOf(member.id)));
    expect(counted.map((rows) => rows.map((row) => row.target_id))).toEqual([[String(acks[0]!.data!.message.id)], [], [String(acks[2]!.data!.message.id)], []]);
  });

  it("without JavaScript the room's form asks first: without the field it shows the warning and stores nothing, with it stores and counts", async () => {
    const alice = await createBrowserMember(server.app, "アリス");
    const bob = await createMember(server.app, "ボブ");
    const roomId = await directRoom(alice, bob);

    const asked = await alice.page(`/chat/${roomId}`, form({ content: LURE }));
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain("サイト外での支払いのお願いではありませんか？");
    expect(html).toContain("このまま送信する");
    expect(html).toContain('name="offPlatformConfirmed" value="true"');
    expect(html).toContain("PayPayで送金してください");
    expect(await messagesOf(alice.id)).toEqual([]);
    expect(await flagsOf(alice.id)).toEqual([]);

    const sent = await alice.page(`/chat/${roomId}`, form({ content: LURE, offPlatformConfirmed: "true" }));
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`/chat/${roomId}`);
    const stored = await messagesOf(alice.id);
    expect(stored.map((m) => m.content)).toEqual([LURE]);
    expect(await flagsOf(alice.id)).toEqual([{ target_type: "chat_message", target_id: String(stored[0]!.id) }]);

    // Ordinary talk goes straight through, uncounted.
    expect((await alice.page(`/chat/${roomId}`, form({ content: "振り込み詐欺に気をつけて" }))).status).toBe(302);
    expect(await flagsOf(alice.id)).toHaveLength(1);
  });
});

describe("off-platform payment posts", () => {
  it("the API stores and counts a matching post in its transaction; an ordinary one is not counted", async () => {
    const author = await createMember(server.app, "投稿する人");
    const lure = await author.api("/api/posts/create", { json: { content: LURE_POST, isPublic: true, offPlatformConfirmed: true } });
    expect(lure.status).toBe(201);
    const lurePost = (await lure.json()).post as { id: string };
    const plain = await author.api("/api/posts/create", { json: { content: "銀行強盗ミッション行こう", isPublic: true } });
    expect(plain.status).toBe(201);
    const skipped = await author.api("/api/posts/create", { json: { content: "Amazonギフト券で払ってください", isPublic: true } });
    expect(skipped.status).toBe(201);
    const skippedPost = (await skipped.json()).post as { id: string };
    expect(await flagsOf(author.id)).toEqual([
      { target_type: "post", target_id: lurePost.id },
      { target_type: "post", target_id: skippedPost.id },
    ]);
    // A post refused (the limit: five a minute) leaves no count behind.
    for (let i = 0; i < 2; i++) expect((await author.api("/api/posts/create", { json: { content: `埋める${i}` } })).status).toBe(201);
    const refused = await author.api("/api/posts/create", { json: { content: LURE_POST, offPlatformConfirmed: true } });
    expect(refused.status).toBe(429);
    expect(await flagsOf(author.id)).toHaveLength(2);
  });

  it("without JavaScript the new post form asks first: without the field nothing is published, with it the post is stored and counted", async () => {
    const author = await createBrowserMember(server.app, "ページから投稿する人");
    const asked = await author.page("/posts/new", multipart({ content: LURE_POST }));
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain("サイト外での支払いのお願いではありませんか？");
    expect(html).toContain('name="offPlatformConfirmed" value="true"');
    expect(html).toContain("このまま送信する");
    expect(await postsOf(author.id)).toEqual([]);
    expect(await flagsOf(author.id)).toEqual([]);

    const posted = await author.page("/posts/new", multipart({ content: LURE_POST, offPlatformConfirmed: "true" }));
    expect(posted.status).toBe(302);
    const stored = await postsOf(author.id);
    expect(stored.map((p) => p.content)).toEqual([LURE_POST]);
    expect(await flagsOf(author.id)).toEqual([{ target_type: "post", target_id: stored[0]!.id }]);

    expect((await author.page("/posts/new", multipart({ content: "ランク振り分けどうする？" }))).status).toBe(302);
    expect(await flagsOf(author.id)).toHaveLength(1);
  });
});
