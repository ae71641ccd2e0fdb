import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserMember, type Member } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

const browserMember = (name: string) => createBrowserMember(app, name);

async function room(a: Member, b: Member) {
  const body = await (await a.api("/api/chat/rooms", { json: { participantIds: [b.id], type: "DIRECT", name: null } })).json();
  return body.data.chatRoom.id as string;
}

describe("chat pages without JavaScript", () => {
  it("read the latest messages, send with a form that comes back to the room, and page back with ?before=", async () => {
    const alice = await browserMember("アリス");
    const bob = await browserMember("ボブ");
    const roomId = await room(alice, bob);
    await app.database.db
      .insertInto("chat_messages")
      .values(Array.from({ length: 35 }, (_, i) => ({ room_id: roomId, sender_id: bob.id, content: `メッセージ${i}` })))
      .execute();

    const list = await (await alice.page("/chat")).text();
    expect(list).toContain("ボブ");
    expect(list).toContain("未読35件");

    const html = await (await alice.page(`/chat/${roomId}`)).text();
    expect(html).toContain("メッセージ34");
    expect(html).toContain("メッセージ5");
    expect(html).not.toContain("メッセージ4<");
    const older = /href="[^"]*\?before=(\d+)"/.exec(html)?.[1];
    expect(older).toBeTruthy();
    const olderHtml = await (await alice.page(`/chat/${roomId}?before=${older}`)).text();
    expect(olderHtml).toContain("メッセージ0");
    expect(olderHtml).toContain("メッセージ4<");
    // Opening the room read it.
    expect((await (await alice.api("/api/chat/unread-count")).json()).unreadCount).toBe(0);

    const sent = await alice.page(`/chat/${roomId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ content: "<b>フォームから</b>" }),
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`/chat/${roomId}`);
    const after = await (await alice.page(`/chat/${roomId}`)).text();
    expect(after).toContain("&lt;b&gt;フォームから&lt;/b&gt;");

    const empty = await alice.page(`/chat/${roomId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ content: "  " }),
    });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("メッセージを入力してください");
  });

  it("someone else's room is a 404, and an invalid room id a 404 `Page Not Found`", async () => {
    const [a, b, c] = await Promise.all([browserMember("a"), browserMember("b"), browserMember("c")]);
    const roomId = await room(a, b);
    expect((await c.page(`/chat/${roomId}`)).status).toBe(404);
    const post = await c.page(`/chat/${roomId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ content: "侵入" }),
    });
    expect(post.status).toBe(404);
    const invalid = await c.page("/chat/not-a-uuid");
    expect(invalid.status).toBe(404);
    expect(await invalid.text()).toContain("Page Not Found: /chat/not-a-uuid");
  });

  it("/chat?with={uid} opens the DIRECT room with that user, the same one every time", async () => {
    const [a, b] = await Promise.all([browserMember("a"), browserMember("b")]);
    const first = await a.page(`/chat?with=${b.id}`);
    expect(first.status).toBe(302);
    const second = await a.page(`/chat?with=${b.id}`);
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    expect(first.headers.get("location")).toMatch(/^\/chat\/[0-9a-f-]{36}$/);
  });

  it("a signed-out visitor is sent to log in", async () => {
    const response = await app.request("/chat");
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fchat");
  });
});
