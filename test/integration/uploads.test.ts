import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createMember, signUp, type Member } from "../support/auth";
import { startBuiltServer, type BuiltServer } from "../support/built-server";
import { createTestDatabase, testEngine, type TestDatabase } from "../support/database";
import { serverWithSockets } from "../support/sockets";
import { signAnonKey } from "../../app/infra/auth/jwt";
import { createImageStorage } from "../../app/infra/storage";

/**
 * POST /api/uploads through the real server (docs/product.md#runtime, #api, #constants; ADR 017), on whichever engine the run uses: images
 * judged by their bytes, re-encoded without metadata, capped in size, served immutable with nosniff; everything
 * else a 400; 11 MB a 413 that the server never reads into memory (and that reaches the client: ADR 033); 20 an hour.
 */

const server = serverWithSockets({ seed: false });
const CHECK_INPUT = "入力内容を確認してください";

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } });

function upload(member: Pick<Member, "token"> | null, bytes: Uint8Array, { type = "post", filename = "image.jpg", contentType = "image/jpeg" } = {}) {
  const form = new FormData();
  form.append("type", type);
  form.append("file", new Blob([new Uint8Array(bytes)], { type: contentType }), filename);
  return server.app.request("/api/uploads", { method: "POST", body: form, headers: member ? { Authorization: `Bearer ${member.token}` } : {} });
}
const uploadsOf = (member: Member) => server.app.database.db.selectFrom("uploads").selectAll().where("owner_id", "=", member.id).execute();
const fetchServed = async (url: string) => {
  const response = await server.app.request(url);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
};

let member: Member;
beforeAll(async () => {
  member = await createMember(server.app, "画像の人");
});

describe("POST /api/uploads", () => {
  it("a JPEG with EXIF GPS comes back upright, without any metadata, capped at 2048 px, served immutable with nosniff", async () => {
    const original = await solid(3000, 1200)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: "GamerMatchCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 40/1 0/1" } })
      .toBuffer();
    const before = await sharp(original).metadata();
    // The GPS IFD pointer (tag 0x8825) is in the original's EXIF.
    expect(before.exif && (before.exif.includes(Buffer.from([0x88, 0x25])) || before.exif.includes(Buffer.from([0x25, 0x88])))).toBe(true);

    const response = await upload(member, original);
    expect(response.status).toBe(201);
    const { success, data } = await response.json();
    // Orientation 6 turns 3000 × 1200 upright to 1200 × 3000, then the longest side is capped: 819 × 2048.
    expect({ success, data }).toEqual({ success: true, data: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: expect.stringMatching(/^\/uploads\/post\/[0-9a-f]{64}\.jpg$/), width: 819, height: 2048 } });

    const { response: served, bytes } = await fetchServed(data.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
    const after = await sharp(bytes).metadata();
    expect(after).toMatchObject({ format: "jpeg", width: 819, height: 2048 });
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(bytes.includes("GamerMatchCam")).toBe(false);
    expect(await uploadsOf(member)).toContainEqual(
      expect.objectContaining({ url: data.url, kind: "post", content_type: "image/jpeg", width: 819, height: 2048, bytes: bytes.length }),
    );
  });

  it("a PNG named .jpg and sent as image/jpeg is stored and served as PNG", async () => {
    const png = await solid(40, 30).png().toBuffer();
    const response = await upload(member, png, { filename: "photo.jpg", contentType: "image/jpeg" });
    expect(response.status).toBe(201);
    const { data } = await response.json();
    expect(data).toEqual({ id: expect.any(String), url: expect.stringMatching(/\.png$/), width: 40, height: 30 });
    const { response: served, bytes } = await fetchServed(data.url);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect((await sharp(bytes).metadata()).format).toBe("png");
  });

  it("an avatar is square-cropped, at most 512 px, and never enlarged", async () => {
    const big = await upload(member, await solid(1600, 900).webp().toBuffer(), { type: "avatar", filename: "me.webp", contentType: "image/webp" });
    expect(big.status).toBe(201);
    expect((await big.json()).data).toEqual({ id: expect.any(String), url: expect.stringMatching(/^\/uploads\/avatar\/[0-9a-f]{64}\.webp$/), width: 512, height: 512 });
    const small = await upload(member, await solid(120, 80).gif().toBuffer(), { type: "avatar", filename: "me.gif", contentType: "image/gif" });
    expect(small.status).toBe(201);
    const { data } = await small.json();
    expect(data).toMatchObject({ width: 80, height: 80 });
    const { response: served } = await fetchServed(data.url);
    expect(served.headers.get("content-type")).toBe("image/gif");
  });

  it("HTML named .png, SVG, polyglots (PNG + HTML, JPEG + ZIP) and a truncated image are 400 入力内容を確認してください, and nothing is stored", async () => {
    const png = await solid(64, 64).png().toBuffer();
    const jpeg = await solid(64, 64).jpeg().toBuffer();
    // The smallest ZIP: an empty archive's end-of-central-directory record.
    const zip = Buffer.concat([Buffer.from("PK\x05\x06", "latin1"), Buffer.alloc(18)]);
    const cases: Array<[string, Uint8Array, string, string]> = [
      ["html", Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>"), "cat.png", "image/png"],
      ["svg", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'), "cat.svg", "image/svg+xml"],
      ["png+html", Buffer.concat([png, Buffer.from("<html><script>alert(1)</script></html>")]), "cat.png", "image/png"],
      ["jpeg+zip", Buffer.concat([jpeg, zip]), "cat.jpg", "image/jpeg"],
      ["truncated jpeg", jpeg.subarray(0, Math.floor(jpeg.length / 2)), "cat.jpg", "image/jpeg"],
      ["truncated png", png.subarray(0, png.length - 20), "cat.png", "image/png"],
      ["empty", Buffer.alloc(0), "cat.png", "image/png"],
    ];
    const stranger = await createMember(server.app, "あやしい人");
    for (const [name, bytes, filename, contentType] of cases) {
      const response = await upload(stranger, bytes, { filename, contentType });
      expect(response.status, name).toBe(400);
      expect((await response.json()).error.message, name).toBe(CHECK_INPUT);
    }
    expect(await uploadsOf(stranger)).toEqual([]);
  });

  it("a bad type is 400, no session is 401, and a 21st upload within the hour is 429 (exactly 20 of 24 at once)", async () => {
    const png = await solid(8, 8).png().toBuffer();
    const badType = await upload(member, png, { type: "banner" });
    expect(badType.status).toBe(400);
    expect((await badType.json()).error).toMatchObject({ message: CHECK_INPUT, fieldErrors: { type: [expect.any(String)] } });

    const anonymous = await upload(null, png);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.message).toBe("認証が必要です");
    // Signed up but no profile yet: refused plainly, nothing stored (an upload belongs to a profile).
    const { session } = await signUp(server.app);
    const profileless = await upload({ token: session.access_token }, png);
    expect(profileless.status).toBe(403);
    expect((await profileless.json()).error).toMatchObject({ code: "profile_required", message: "プロフィールが未設定です" });

    const busy = await createMember(server.app, "たくさん");
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => upload(busy, png, { filename: `${i}.png` })));
    const statuses = results.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(20).fill(201), ...Array(4).fill(429)]);
    const refused = results.find((response) => response.status === 429)!;
    expect((await refused.json()).error.message).toBe("画像のアップロードが多すぎます。しばらくしてから再度お試しください。");
    // The same bytes are one stored file with a row per upload.
    expect(await uploadsOf(busy)).toHaveLength(20);
  });

  it("a missing upload is 404, a folder is not listed", async () => {
    expect((await server.app.request(`/uploads/post/${"0".repeat(64)}.png`)).status).toBe(404);
    expect((await server.app.request("/uploads/post/")).status).toBe(404);
    expect((await server.app.request("/uploads/")).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 11 MB: refused without being read

const BOUNDARY = "----gm-upload-boundary";
const preamble = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\npost\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
);
const epilogue = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

interface RawResult {
  status: number;
  body: string;
  /** Body bytes the client managed to hand to the socket before the answer came (or the connection closed). */
  sent: number;
  connection: string | undefined;
  /** When the connection ended before an answer could be read (EPIPE, ECONNRESET). */
  error?: string;
}

/**
 * A multipart POST of `fileBytes` written in 64 KB chunks, with its Content-Length or chunked, that stops writing
 * as soon as the answer arrives. `holdBody`: send only the headers and wait for the answer before any body.
 */
function rawUpload(baseUrl: string, token: string, { fileBytes, chunked = false, holdBody = false }: { fileBytes: number; chunked?: boolean; holdBody?: boolean }) {
  const url = new URL("/api/uploads", baseUrl);
  return new Promise<RawResult>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request(url, {
      method: "POST",
      agent: false,
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
        ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(preamble.length + fileBytes + epilogue.length) }),
      },
    });
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body, sent, connection: response.headers.connection }));
      response.on("error", reject);
    });
    // Once the server answered and closed, the writes that were still under way fail: expected. A reset before the
    // answer comes back as status 0, which the tests refuse (ADR 033).
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (!answered) resolve({ status: 0, body: "", sent, connection: undefined, error: error.code ?? error.message });
    });
    request.flushHeaders();
    if (holdBody) return;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    void (async () => {
      const write = (data: Buffer) =>
        new Promise<void>((done) => {
          if (answered || request.destroyed) return done();
          sent += data.length;
          if (request.write(data)) done();
          else request.once("drain", done).once("close", done);
        });
      await write(preamble);
      for (let left = fileBytes; left > 0 && !answered && !request.destroyed; left -= chunk.length) {
        await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
      }
      if (!answered && !request.destroyed) {
        await write(epilogue);
        request.end();
      }
    })();
  });
}

const ELEVEN_MB = 11 * 1024 * 1024;

describe("11 MB uploads", () => {
  it("with its Content-Length: 413 before a byte of the body is sent", async () => {
    const result = await rawUpload(server.app.url, member.token, { fileBytes: ELEVEN_MB, holdBody: true });
    expect(result).toMatchObject({ status: 413, sent: 0 });
    expect(JSON.parse(result.body).error).toEqual({ code: "too_large", message: "画像のサイズは10MBまでです" });
  });

  it("streamed without a length (chunked): the server stops reading once the file passes 10 MB, long before 40 MB were sent", async () => {
    const result = await rawUpload(server.app.url, member.token, { fileBytes: 40 * 1024 * 1024, chunked: true });
    expect(result.status, result.error).toBe(413);
    expect(JSON.parse(result.body).error.message).toBe("画像のサイズは10MBまでです");
    expect(result.sent).toBeLessThan(30 * 1024 * 1024);
    expect((await server.app.request("/healthz")).status).toBe(200);
  });

  it("the server process keeps none of three refused 11 MB bodies (its own process, its memory after a full collection)", async () => {
    const secret = randomBytes(32).toString("base64url");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-uploads-"));
    let database: TestDatabase | undefined;
    let child: BuiltServer | undefined;
    try {
      if (testEngine === "postgres") database = await createTestDatabase();
      child = await startBuiltServer({
        DATA_DIR: dataDir,
        SUPABASE_JWT_SECRET: secret,
        SEED: "none",
        NODE_OPTIONS: `--require ${path.resolve("test/support/gc-on-signal.cjs")}`,
        ...(database?.url ? { DATABASE_URL: database.url } : {}),
      });
      const built = child;
      const supabase = createClient(built.url, await signAnonKey(secret), {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never },
      });
      const { data, error } = await supabase.auth.signUp({ email: `big-${randomBytes(4).toString("hex")}@example.jp`, password: "correct-horse-42" });
      if (error || !data.session) throw error ?? new Error("no session");
      const token = data.session.access_token;
      let collections = 0;
      // What the process holds once a full collection has freed what it dropped (test/support/gc-on-signal.cjs).
      const heldAfterCollection = async () => {
        collections += 1;
        process.kill(built.pid, "SIGUSR2");
        const line = new RegExp(`gc: done ${collections} (\\{.*\\})\\n`);
        await expect.poll(() => line.test(built.output())).toBe(true);
        return JSON.parse(line.exec(built.output())![1]) as { heapUsed: number; arrayBuffers: number };
      };

      const refused = (result: RawResult) => expect(result.status, result.error).toBe(413);
      // Warm up the route (its modules, the parser) so the baseline includes them.
      refused(await rawUpload(built.url, token, { fileBytes: ELEVEN_MB }));
      const before = await heldAfterCollection();
      for (let i = 0; i < 3; i++) {
        refused(await rawUpload(built.url, token, { fileBytes: ELEVEN_MB }));
      }
      // Refused from its Content-Length, each body is read and dropped piece by piece (ADR 033): once collected,
      // nothing of it is left. The client has its 413 before the server has dropped the last pieces (on a busy
      // machine 5 MB were still arriving when the client was done), so the measure is repeated while it falls, for
      // up to 10 s: what a leak keeps never goes. Buffers are counted in arrayBuffers, their wrappers in the heap;
      // three bodies kept would be 33 MB of buffers, one 11 MB.
      const within = { buffers: 1024 * 1024, heap: 4 * 1024 * 1024 };
      let growth = { buffers: Infinity, heap: Infinity };
      for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((resolve) => setTimeout(resolve, 250))) {
        const after = await heldAfterCollection();
        growth = { buffers: after.arrayBuffers - before.arrayBuffers, heap: after.heapUsed - before.heapUsed };
        if (growth.buffers < within.buffers && growth.heap < within.heap) break;
      }
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      expect(growth.buffers, `buffers grew by ${mb(growth.buffers)}`).toBeLessThan(within.buffers);
      expect(growth.heap, `the heap grew by ${mb(growth.heap)}`).toBeLessThan(within.heap);
    } finally {
      await child?.stop();
      await database?.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Supabase Storage

describe("Supabase Storage", () => {
  let storageServer: http.Server;
  const received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }> = [];
  let baseUrl: string;

  beforeAll(async () => {
    storageServer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        const key = req.url!.replace(/^\/storage\/v1\/object\//, "");
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ Id: "object-id", Key: key }));
      });
    });
    await new Promise<void>((resolve) => storageServer.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(storageServer.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => storageServer.close(() => resolve())));

  it("stores through supabase-js in the configured bucket with its content type and answers the public URL", async () => {
    const storage = createImageStorage({
      DATA_DIR: os.tmpdir(),
      SUPABASE_URL: baseUrl,
      SUPABASE_ANON_KEY: "anon-key-for-the-storage-test",
      SUPABASE_SERVICE_ROLE_KEY: "service-role-key-for-the-storage-test",
      SUPABASE_STORAGE_BUCKET: "gm-images",
    });
    const body = await solid(10, 10).png().toBuffer();
    const key = `post/${"ab".repeat(32)}.png`;
    const url = await storage.put({ key, body, contentType: "image/png" });
    expect(url).toBe(`${baseUrl}/storage/v1/object/public/gm-images/${key}`);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: "POST", url: `/storage/v1/object/gm-images/${key}` });
    expect(request!.headers["content-type"]).toBe("image/png");
    expect(request!.headers["x-upsert"]).toBe("true");
    expect(request!.headers.authorization).toBe("Bearer service-role-key-for-the-storage-test");
    expect(request!.body.equals(body)).toBe(true);
  });
});
