import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImageStorage } from "../../app/infra/storage";
import { hideReported } from "../../app/models/moderation.server";
import { createMember } from "../support/auth";
import { TEST_OPERATOR } from "../support/operators";
import { startS3Server } from "../support/s3-server";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Private media on an object store (ADR 069): the app with S3_BUCKET against s3rver (ADR 066) stores a chat picture
 * under `private/` and answers a member's /media with a 302 to a five-minute presigned URL, the redirect itself never
 * cached; anyone else gets the same 404 as on the local disk. The CSP lets pages load those URLs.
 */

const BUCKET = "gamermatch-media";
let dir: string;
let s3: Awaited<ReturnType<typeof startS3Server>>;
let app: TestServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-media-s3-"));
  s3 = await startS3Server(dir, BUCKET);
  app = await startTestServer({ seed: false, env: { ...s3.settings, S3_PUBLIC_URL: "https://cdn.example.jp/images" } });
});

afterAll(async () => {
  await app?.close();
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("private media on an S3-API store", () => {
  it("a member's /media is a 302 to a presigned URL of the private object (private, no-store); a stranger and a signed-out visitor get 404", async () => {
    const [alice, bob, eve] = await Promise.all(["アリス", "ボブ", "イヴ"].map((name) => createMember(app, name)));
    const room = await alice.api("/api/chat/rooms", { json: { participantIds: [bob.id], type: "DIRECT", name: null } });
    const roomId = (await room.json()).data.chatRoom.id as string;
    const form = new FormData();
    form.append("type", "chat");
    form.append("file", new Blob([new Uint8Array(await sharp({ create: { width: 1000, height: 500, channels: 3, background: "#3366aa" } }).jpeg().toBuffer())]), "shot.jpg");
    const uploaded = await app.request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${alice.token}` } });
    expect(uploaded.status).toBe(201);
    const { id } = (await uploaded.json()).data;
    expect((await alice.api("/api/chat/messages", { json: { roomId, messageType: "IMAGE", content: id, metadata: { caption: "バケットから" } } })).status).toBe(201);

    for (const [pathname, width] of [
      [`/media/${id}`, 1000],
      [`/media/${id}/small`, 480],
    ] as const) {
      const answer = await app.request(pathname, { headers: { Authorization: `Bearer ${bob.token}` } });
      expect(answer.status).toBe(302);
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
      const location = new URL(answer.headers.get("location")!);
      // The bucket's own endpoint (path-style), never the public CDN, under private/, signed for 300 s.
      expect(location.origin).toBe(s3.endpoint);
      expect(location.pathname).toMatch(new RegExp(`^/${BUCKET}/private/chat/[0-9a-f]{64}\\.jpg$`));
      expect(location.searchParams.get("X-Amz-Expires")).toBe("300");
      expect(location.searchParams.get("X-Amz-Signature")).toBeTruthy();
      const object = await fetch(location);
      expect(object.status).toBe(200);
      expect(await sharp(Buffer.from(await object.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width });
    }

    for (const who of [eve, undefined]) {
      const refused = await app.request(`/media/${id}`, who ? { headers: { Authorization: `Bearer ${who.token}` } } : {});
      expect(refused.status).toBe(404);
      expect(refused.headers.get("location")).toBeNull();
    }
    // Nothing of the picture on the local disk.
    expect(fs.existsSync(path.join(app.config.DATA_DIR, "uploads-private"))).toBe(false);
  });

  it("hidden by the operators, a picture's objects (full and small) leave the bucket; /media 404", async () => {
    const [alice, bob] = await Promise.all(["アリス", "ボブ"].map((name) => createMember(app, name)));
    const room = await alice.api("/api/chat/rooms", { json: { participantIds: [bob.id], type: "DIRECT", name: null } });
    const roomId = (await room.json()).data.chatRoom.id as string;
    const form = new FormData();
    form.append("type", "chat");
    form.append("file", new Blob([new Uint8Array(await sharp({ create: { width: 900, height: 600, channels: 3, background: "#aa6633" } }).jpeg().toBuffer())]), "shot.jpg");
    const { id } = (await (await app.request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${alice.token}` } })).json()).data;
    const sent = await alice.api("/api/chat/messages", { json: { roomId, messageType: "IMAGE", content: id, metadata: null } });
    const messageId = String((await sent.json()).data.message.id);
    const signed = await Promise.all(["", "/small"].map(async (size) => new URL((await app.request(`/media/${id}${size}`, { headers: { Authorization: `Bearer ${bob.token}` } })).headers.get("location")!)));
    for (const url of signed) expect((await fetch(url)).status).toBe(200);

    const reported = await bob.api("/api/reports", { json: { targetType: "chat_message", targetId: messageId, reason: "spam" } });
    const reportId = (await reported.json()).data.report.id as number;
    await hideReported({ db: app.database.db, operator: TEST_OPERATOR, reportId, reason: "不適切", storage: createImageStorage(app.config) });
    for (const url of signed) expect((await fetch(url)).status).toBe(404);
    expect((await app.request(`/media/${id}`, { headers: { Authorization: `Bearer ${alice.token}` } })).status).toBe(404);
  });

  it("pages' CSP lets images come from the bucket's endpoint (signed URLs) and the public CDN", async () => {
    const page = await app.request("/login");
    const imgSrc = /img-src ([^;]+)/.exec(page.headers.get("content-security-policy") ?? "")?.[1]?.split(" ") ?? [];
    expect(imgSrc).toEqual(expect.arrayContaining(["'self'", s3.endpoint, "https://cdn.example.jp"]));
  });
});
