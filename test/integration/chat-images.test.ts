import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { collect, serverWithSockets, settle } from "../support/sockets";
import { listLocalUploads } from "../../app/infra/storage";
import { getReportDetail } from "../../app/models/moderation-queue.server";

/**
 * Pictures in chat (docs/product.md#chat, ADR 069) through the real server, on whichever engine the run uses:
 * a chat upload is private, an image message carries its id and caption and reaches every member live with its size,
 * /media serves it to the room's members only (404 for everyone else), without its EXIF; each refusal stores nothing.
 */

const server = serverWithSockets({ seed: false });
const CHECK_INPUT = "入力内容を確認してください";

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg()
    .withExif({ IFD0: { Make: "GamerMatchCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 40/1 0/1" } })
    .toBuffer();

function upload(member: Pick<Member, "token">, bytes: Uint8Array, type = "chat") {
  const form = new FormData();
  form.append("type", type);
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "photo.jpg");
  return server.app.request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${member.token}` } });
}

async function uploadedId(member: Member, bytes?: Uint8Array) {
  const response = await upload(member, bytes ?? (await photo(64, 48)));
  expect(response.status).toBe(201);
  return (await response.json()).data.id as string;
}

async function groupRoom(owner: Member, others: Member[]) {
  const response = await owner.api("/api/chat/rooms", { json: { participantIds: others.map((m) => m.id), type: "GROUP", name: "スクショ部" } });
  return (await response.json()).data.chatRoom.id as string;
}

const sendPicture = (member: Member, roomId: string, uploadId: string, { caption, clientId }: { caption?: unknown; clientId?: string } = {}) =>
  member.api("/api/chat/messages", { json: { roomId, messageType: "IMAGE", content: uploadId, metadata: caption === undefined ? null : { caption }, ...(clientId ? { clientId } : {}) } });

const media = (pathname: string, member?: Pick<Member, "token">) =>
  server.app.request(pathname, member ? { headers: { Authorization: `Bearer ${member.token}` } } : {});

const db = () => server.app.database.db;
const messagesOf = (member: Member) => db().selectFrom("chat_messages").select(["id", "content", "message_type", "upload_id"]).where("sender_id", "=", member.id).execute();
const uploadsOf = (member: Member) => db().selectFrom("uploads").select(["id", "url", "variant_url", "kind"]).where("owner_id", "=", member.id).execute();

/** A PNG whose header claims 20,000 × 20,000 pixels (400 million: a decompression bomb), CRC recomputed so only the size is wrong. */
async function pixelBomb() {
  const png = Buffer.from(await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).png().toBuffer());
  png.writeUInt32BE(20_000, 16);
  png.writeUInt32BE(20_000, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

describe("image messages", () => {
  it("are stored and delivered live to every member with their size and caption; members fetch /media (private, no EXIF), a stranger and a signed-out visitor get 404", async () => {
    const [alice, bob, carol, eve] = await Promise.all(["アリス", "ボブ", "キャロル", "イヴ"].map((name) => createMember(server.app, name)));
    const roomId = await groupRoom(alice, [bob, carol]);
    const [toBob, toCarol, toEve] = await Promise.all([bob, carol, eve].map(async (member) => collect<Record<string, unknown>>(await server.socketOf(member), "chat:message")));

    const uploaded = await upload(alice, await photo(1200, 900));
    expect(uploaded.status).toBe(201);
    const { data } = await uploaded.json();
    expect(data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `/media/${data.id}`, width: 1200, height: 900 });
    // Private: stored outside the served folder, and its row holds a reference, not a URL.
    const [row] = await uploadsOf(alice);
    expect(row).toMatchObject({ kind: "chat", url: expect.stringMatching(/^private:chat\/[0-9a-f]{64}\.jpg$/), variant_url: expect.stringMatching(/^private:chat\//) });
    expect(row!.variant_url).not.toBe(row!.url);
    expect(fs.existsSync(path.join(server.app.config.DATA_DIR, "uploads", "chat"))).toBe(false);
    expect((await server.app.request(`/uploads/${row!.url.slice("private:".length)}`)).status).toBe(404);

    const sent = await sendPicture(alice, roomId, data.id, { caption: "  ランク上がった！\n見て  ", clientId: randomUUID() });
    expect(sent.status).toBe(201);
    const { message } = (await sent.json()).data;
    expect(message).toMatchObject({ messageType: "IMAGE", content: data.id, chatRoomId: roomId, metadata: { caption: "ランク上がった！\n見て", width: 1200, height: 900 } });
    await settle();
    expect(toBob).toEqual([expect.objectContaining({ id: message.id, messageType: "IMAGE", content: data.id, metadata: message.metadata })]);
    expect(toCarol).toEqual([expect.objectContaining({ id: message.id })]);
    expect(toEve).toEqual([]);

    for (const member of [alice, bob, carol]) {
      const full = await media(`/media/${data.id}`, member);
      expect(full.status).toBe(200);
      expect(full.headers.get("content-type")).toBe("image/jpeg");
      expect(full.headers.get("cache-control")).toBe("private, max-age=3600");
      expect(full.headers.get("x-content-type-options")).toBe("nosniff");
      const bytes = Buffer.from(await full.arrayBuffer());
      const served = await sharp(bytes).metadata();
      expect(served).toMatchObject({ format: "jpeg", width: 1200, height: 900 });
      expect(served.exif).toBeUndefined();
      expect(bytes.includes("GamerMatchCam")).toBe(false);
    }
    const small = await media(`/media/${data.id}/small`, bob);
    expect(small.status).toBe(200);
    expect(small.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(await sharp(Buffer.from(await small.arrayBuffer())).metadata()).toMatchObject({ width: 480, height: 360 });

    // Not a member, signed out, an id that names nothing, not an id: one 404, which says nothing and is never stored.
    for (const [pathname, who] of [
      [`/media/${data.id}`, eve],
      [`/media/${data.id}/small`, eve],
      [`/media/${data.id}`, undefined],
      [`/media/${data.id}/small`, undefined],
      [`/media/${randomUUID()}`, bob],
      ["/media/not-an-id", bob],
    ] as const) {
      const refused = await media(pathname, who);
      expect(refused.status, `${pathname} ${who ? "eve/bob" : "signed out"}`).toBe(404);
      expect(refused.headers.get("cache-control")).toBe("private, no-store");
      expect(refused.headers.get("content-type")).not.toMatch(/^image\//);
    }

  });

  it("reported, it shows the operators its summary and where its file is, never only an id", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const roomId = await groupRoom(alice, [bob]);
    const id = await uploadedId(alice);
    const sent = await (await sendPicture(alice, roomId, id, { caption: "フレンドコードです" })).json();
    const reported = await bob.api("/api/reports", { json: { targetType: "chat_message", targetId: String(sent.data.message.id), reason: "spam" } });
    expect(reported.status).toBe(201);
    const detail = await getReportDetail({ db: db(), reportId: (await reported.json()).data.report.id });
    expect(detail?.content?.text).toMatch(/^画像を送信しました：フレンドコードです \[画像: private:chat\/[0-9a-f]{64}\.jpg\]$/);
  });

  it("a picture's uploader sees it before it is sent; nobody else does", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const id = await uploadedId(alice);
    expect((await media(`/media/${id}`, alice)).status).toBe(200);
    expect((await media(`/media/${id}`, bob)).status).toBe(404);
  });

  it("someone else's upload, a public post image or a made-up id: 404 画像が見つかりません, nothing stored; a picture sent once cannot be sent again (409)", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const roomId = await groupRoom(alice, [bob]);
    const bobsPicture = await uploadedId(bob);
    const postImage = await upload(alice, await photo(40, 40), "post");
    const postImageId = (await postImage.json()).data.id as string;
    for (const id of [bobsPicture, postImageId, randomUUID()]) {
      const refused = await sendPicture(alice, roomId, id);
      expect(refused.status).toBe(404);
      expect((await refused.json()).error).toMatchObject({ code: "upload_not_found", message: "画像が見つかりません。もう一度選択してください" });
    }
    expect(await messagesOf(alice)).toEqual([]);
    // And bob's picture stays his: alice cannot read it either.
    expect((await media(`/media/${bobsPicture}`, alice)).status).toBe(404);

    const mine = await uploadedId(alice);
    expect((await sendPicture(alice, roomId, mine)).status).toBe(201);
    const again = await sendPicture(alice, roomId, mine);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({ code: "upload_used", message: "この画像はすでに送信されています。もう一度選択してください" });
    expect(await messagesOf(alice)).toHaveLength(1);
  });

  it("sent again with the same client id (a lost answer), over the API and the socket, is stored once", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const roomId = await groupRoom(alice, [bob]);
    const id = await uploadedId(alice);
    const clientId = randomUUID();
    const first = await (await sendPicture(alice, roomId, id, { caption: "一回だけ", clientId })).json();
    const second = await sendPicture(alice, roomId, id, { caption: "一回だけ", clientId });
    expect(second.status).toBe(201);
    expect((await second.json()).data.message.id).toBe(first.data.message.id);
    const socket = await server.socketOf(alice);
    const ack = await socket.emitWithAck("chat:send", { roomId, messageType: "IMAGE", content: id, metadata: { caption: "一回だけ" }, clientId });
    expect(ack).toMatchObject({ status: 201, data: { message: { id: first.data.message.id } } });
    expect(await messagesOf(alice)).toEqual([{ id: first.data.message.id, content: id, message_type: "IMAGE", upload_id: id }]);
  });

  it("the caption: at most 500 characters (501 is a 400 that stores nothing), optional, and a message needs an upload id", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const roomId = await groupRoom(alice, [bob]);
    const id = await uploadedId(alice);
    const tooLong = await sendPicture(alice, roomId, id, { caption: "あ".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error.fieldErrors).toEqual({ metadata: ["500文字以内で入力してください"] });
    for (const content of ["", "not-an-id", 42]) {
      const bad = await alice.api("/api/chat/messages", { json: { roomId, messageType: "IMAGE", content } });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.fieldErrors.content).toEqual(["画像を選択してください"]);
    }
    expect((await alice.api("/api/chat/messages", { json: { roomId, messageType: "SYSTEM", content: "x" } })).status).toBe(400);
    expect(await messagesOf(alice)).toEqual([]);

    const longest = await sendPicture(alice, roomId, id, { caption: "あ".repeat(500) });
    expect(longest.status).toBe(201);
    const without = await sendPicture(alice, roomId, await uploadedId(alice), { caption: "   " });
    expect((await without.json()).data.message.metadata).toEqual({ width: 64, height: 48, placeholder: expect.stringMatching(/^#[0-9a-f]{6}$/) });
  });

  it("a polyglot and a pixel bomb are refused with 400 and nothing is stored, through the API and the room's form", async () => {
    const alice = await createBrowserMember(server.app, "アリス");
    const bob = await createMember(server.app, "ボブ");
    const roomId = await groupRoom(alice, [bob]);
    const privateFiles = () => listLocalUploads(path.join(server.app.config.DATA_DIR, "uploads-private"));
    const filesBefore = privateFiles();
    const jpeg = await photo(32, 32);
    const polyglot = Buffer.concat([jpeg, Buffer.from("<html><script>alert(1)</script></html>")]);
    for (const bytes of [polyglot, await pixelBomb()]) {
      const refused = await upload(alice, bytes);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.message).toBe(CHECK_INPUT);
      const form = new FormData();
      form.append("content", "これは画像です");
      form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "photo.png");
      const posted = await alice.page(`/chat/${roomId}`, { method: "POST", body: form });
      expect(posted.status).toBe(400);
      expect(await posted.text()).toContain(CHECK_INPUT);
    }
    expect(await uploadsOf(alice)).toEqual([]);
    expect(await messagesOf(alice)).toEqual([]);
    expect(privateFiles()).toEqual(filesBefore);
  });
});

describe("the room's plain form (no JavaScript)", () => {
  it("posts a picture and its caption as multipart: both stored in one request; posted again (same client id) nothing more; the other member's page shows the thumbnail", async () => {
    const alice = await createBrowserMember(server.app, "アリス");
    const bob = await createBrowserMember(server.app, "ボブ");
    const roomId = await groupRoom(alice, [bob]);
    const toBob = collect<{ messageType: string }>(await server.socketOf(bob), "chat:message");
    const clientId = randomUUID();
    const form = () => {
      const body = new FormData();
      body.append("clientId", clientId);
      body.append("content", " フォームから送った画像 ");
      body.append("file", new Blob([new Uint8Array(jpegBytes)], { type: "image/jpeg" }), "photo.jpg");
      return body;
    };
    const jpegBytes = await photo(960, 720);
    for (let attempt = 0; attempt < 2; attempt++) {
      const posted = await alice.page(`/chat/${roomId}`, { method: "POST", body: form() });
      expect(posted.status).toBe(302);
      expect(posted.headers.get("location")).toBe(`/chat/${roomId}`);
    }
    const stored = await messagesOf(alice);
    expect(stored).toEqual([{ id: expect.any(Number), content: expect.any(String), message_type: "IMAGE", upload_id: stored[0]!.content }]);
    expect(await uploadsOf(alice)).toHaveLength(1);
    await settle();
    expect(toBob).toEqual([expect.objectContaining({ messageType: "IMAGE" })]);

    const uploadId = stored[0]!.content;
    const page = await (await bob.page(`/chat/${roomId}`)).text();
    expect(page).toContain(`href="/media/${uploadId}"`);
    expect(page).toContain(`srcSet="/media/${uploadId}/small 480w, /media/${uploadId} 960w"`);
    const img = /<img[^>]*src="\/media\/[^"]*\/small"[^>]*>/.exec(page)?.[0] ?? "";
    expect(img).toContain('width="288"');
    expect(img).toContain('height="216"');
    expect(img).toContain('alt="フォームから送った画像"');
    expect(img).toContain('loading="lazy"');
    expect(page).toContain("フォームから送った画像");
    // The composer takes a picture without JavaScript.
    expect(page).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    expect(page).toContain('accept="image/*"');

    // Summaries: the room list says 「画像を送信しました」 and the caption's start, never the upload id.
    const list = await (await bob.page("/chat")).text();
    expect(list).toContain("画像を送信しました：フォームから送った画像");
    // The page's markup (its data for scripts, the members' own, aside).
    const markup = list.replace(/<script[\s\S]*?<\/script>/g, "");
    expect(markup).toContain("画像を送信しました：フォームから送った画像");
    expect(markup).not.toContain(uploadId);
  });

  it("a caption over 500 characters comes back with its message and stores nothing, not even the picture", async () => {
    const alice = await createBrowserMember(server.app, "アリス");
    const bob = await createMember(server.app, "ボブ");
    const roomId = await groupRoom(alice, [bob]);
    const body = new FormData();
    body.append("content", "あ".repeat(501));
    body.append("file", new Blob([new Uint8Array(await photo(40, 40))], { type: "image/jpeg" }), "photo.jpg");
    const posted = await alice.page(`/chat/${roomId}`, { method: "POST", body });
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain("500文字以内で入力してください");
    expect(await uploadsOf(alice)).toEqual([]);
    expect(await messagesOf(alice)).toEqual([]);
  });

  it("a picture whose message is refused (the other person blocked the sender) is not kept: no row, no file", async () => {
    const pest = await createBrowserMember(server.app, "しつこい人");
    const blocker = await createMember(server.app, "ブロックした人");
    const room = await pest.api("/api/chat/rooms", { json: { participantIds: [blocker.id], type: "DIRECT", name: null } });
    const roomId = (await room.json()).data.chatRoom.id as string;
    expect((await blocker.api(`/api/users/${pest.id}/block`, { method: "POST" })).status).toBe(200);
    const privateFiles = () => listLocalUploads(path.join(server.app.config.DATA_DIR, "uploads-private"));
    const filesBefore = privateFiles();
    const body = new FormData();
    body.append("content", "見て");
    body.append("file", new Blob([new Uint8Array(await photo(700, 500))], { type: "image/jpeg" }), "photo.jpg");
    const posted = await pest.page(`/chat/${roomId}`, { method: "POST", body });
    expect(posted.status).toBe(403);
    expect(await posted.text()).toContain("このユーザーにはメッセージを送信できません");
    expect(await uploadsOf(pest)).toEqual([]);
    expect(await messagesOf(pest)).toEqual([]);
    expect(privateFiles()).toEqual(filesBefore);
  });
});
