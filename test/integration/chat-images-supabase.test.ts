import type { LoaderFunctionArgs } from "@remix-run/node";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImageStorage, privateImagesOrigin } from "../../app/infra/storage";
import { serveMedia } from "../../app/http/media.server";
import { hideReported } from "../../app/models/moderation.server";
import { storeImage } from "../../app/models/uploads.server";
import { createMember, type Member } from "../support/auth";
import { testEngine } from "../support/database";
import { TEST_OPERATOR } from "../support/operators";
import { serverWithSockets } from "../support/sockets";
import { startSupabaseStorageServer } from "../support/supabase-storage-server";

/**
 * Private media on Supabase Storage (ADR 069, 070), against a stand-in of its Storage API on 127.0.0.1
 * (test/support/supabase-storage-server.ts). The app's own auth and database are the test server's (SUPABASE_URL
 * would also switch sign-in to hosted Supabase, which the stand-in does not do), the pictures go through the Supabase
 * storage: a chat picture is stored under `private/`, not publicly readable; a member's /media is a 302 to a signed
 * URL that reads it and stops reading it once expired; anyone else gets 404; a hidden message's picture is removed.
 */

const BUCKET = "gm-images";
const server = serverWithSockets({ seed: false });
const db = () => server.app.database.db;
let stand: Awaited<ReturnType<typeof startSupabaseStorageServer>>;

beforeAll(async () => {
  stand = await startSupabaseStorageServer({ bucket: BUCKET, serviceKey: "service-role-key-of-the-stand-in" });
});
afterAll(() => stand?.close());

const supabase = () => createImageStorage({ DATA_DIR: server.app.config.DATA_DIR, ...stand.settings });

/** /media as the route answers it, with the Supabase storage and `viewer` signed in (or nobody). */
function media(uploadId: string, viewer: Member | null, size: "full" | "small" = "full") {
  const context = {
    db: db(),
    config: server.app.config,
    storage: supabase(),
    auth: { getUser: async () => (viewer ? { id: viewer.id } : null) },
  } as unknown as LoaderFunctionArgs["context"];
  return serveMedia({ params: { uploadId }, context }, size);
}

describe(`private media on Supabase Storage (${testEngine})`, () => {
  it("a member's /media is a 302 to a signed URL that reads the private object and expires; strangers 404; the public URL does not read it; hidden, it is removed", async () => {
    const [alice, bob, eve] = await Promise.all(["アリス", "ボブ", "イヴ"].map((name) => createMember(server.app, name)));
    const room = await alice.api("/api/chat/rooms", { json: { participantIds: [bob.id], type: "DIRECT", name: null } });
    const roomId = (await room.json()).data.chatRoom.id as string;
    const bytes = await sharp({ create: { width: 1000, height: 500, channels: 3, background: "#3366aa" } }).jpeg().toBuffer();
    const stored = await storeImage({ db: db(), storage: supabase(), userId: alice.id, kind: "chat", bytes });
    expect(stored.url).toMatch(/^private:chat\/[0-9a-f]{64}\.jpg$/);
    const key = stored.url.slice("private:".length);
    expect(stand.paths()).toEqual(expect.arrayContaining([`private/${key}`, `private/${stored.variantUrl!.slice("private:".length)}`]));
    const sent = await alice.api("/api/chat/messages", { json: { roomId, messageType: "IMAGE", content: stored.id, metadata: { caption: "スパベから" } } });
    expect(sent.status).toBe(201);
    const messageId = String((await sent.json()).data.message.id);

    // Nobody reads it at the bucket's public address.
    expect((await fetch(`${stand.url}/storage/v1/object/public/${BUCKET}/private/${key}`)).status).toBe(400);

    for (const [size, width] of [
      ["full", 1000],
      ["small", 480],
    ] as const) {
      const answer = await media(stored.id, bob, size);
      expect(answer.status).toBe(302);
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
      const location = new URL(answer.headers.get("location")!);
      expect(location.origin).toBe(privateImagesOrigin({ DATA_DIR: "", ...stand.settings }));
      expect(location.pathname).toMatch(new RegExp(`^/storage/v1/object/sign/${BUCKET}/private/chat/[0-9a-f]{64}\\.jpg$`));
      expect(location.searchParams.get("token")).toBeTruthy();
      const object = await fetch(location);
      expect(object.status).toBe(200);
      expect(object.headers.get("content-type")).toBe("image/jpeg");
      expect(await sharp(Buffer.from(await object.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width });
    }
    // A signed URL of one picture does not read another (its token names its object).
    const signed = new URL((await media(stored.id, bob)).headers.get("location")!);
    const other = new URL(signed);
    other.pathname = other.pathname.replace(/[0-9a-f]{64}/, "0".repeat(64));
    expect((await fetch(other)).status).toBe(400);
    // Five minutes later it reads nothing; /media hands out a fresh one.
    stand.advance(301_000);
    const expired = await fetch(signed);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ error: "InvalidJWT" });
    expect((await fetch(new URL((await media(stored.id, bob)).headers.get("location")!))).status).toBe(200);

    for (const who of [eve, null]) {
      const refused = await media(stored.id, who);
      expect(refused.status).toBe(404);
      expect(refused.headers.get("location")).toBeNull();
    }

    // Hidden by the operators: its objects leave the bucket after the commit.
    const reported = await bob.api("/api/reports", { json: { targetType: "chat_message", targetId: messageId, reason: "spam" } });
    const reportId = (await reported.json()).data.report.id as number;
    await hideReported({ db: db(), operator: TEST_OPERATOR, reportId, reason: "宣伝", storage: supabase() });
    expect(stand.paths().filter((path) => path.startsWith("private/chat/"))).toEqual([]);
    expect(stand.requests.some((request) => request.method === "DELETE")).toBe(true);
    expect((await media(stored.id, bob)).status).toBe(404);
  });
});
