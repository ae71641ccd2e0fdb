import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImageStorage, localUploadsDir } from "../../app/infra/storage";
import { s3Storage } from "../../app/infra/storage/s3";
import { runStorageCopyCommand } from "../../server/storage-copy-command";
import { startS3Server } from "../support/s3-server";

/**
 * The S3-API storage (ADR 066) against a real S3-API server, s3rver, on a port of its own on 127.0.0.1. What s3rver
 * does not do, this does not pretend: it serves every object to anonymous GETs (no ACLs, no bucket policies), so
 * "private" is tested as what the app controls: the reference put answers is no URL, and the object sits under
 * `private/`, readable through a presigned GET. s3rver checks a presigned URL's expiry, but not its SigV4 signature
 * ("unimplemented" in its lib/middleware/authentication.js), so a forged signature is not tested here.
 */

const BUCKET = "gm-test";
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const hashKey = (kind: string, n: number, ext = "png") => `${kind}/${n.toString(16).padStart(64, "0")}.${ext}`;

let server: Awaited<ReturnType<typeof startS3Server>>;
let endpoint: string;
let dir: string;

const s3Config = (dataDir = dir) => ({ DATA_DIR: dataDir, SUPABASE_STORAGE_BUCKET: "uploads", ...server.settings });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-s3-"));
  server = await startS3Server(dir, BUCKET);
  endpoint = server.endpoint;
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("S3-API image storage", () => {
  it("is chosen when S3_BUCKET is set, even with SUPABASE_URL", async () => {
    const storage = createImageStorage({ ...s3Config(), SUPABASE_URL: "https://project.supabase.co", SUPABASE_ANON_KEY: "anon-key-of-twenty-chars" });
    const url = await storage.put({ key: hashKey("post", 1), body: PNG, contentType: "image/png" });
    expect(url).toBe(`${endpoint}/${BUCKET}/${hashKey("post", 1)}`);
  });

  it("puts a public object that its public URL serves, with its type and a long cache", async () => {
    const storage = createImageStorage(s3Config());
    const url = await storage.put({ key: hashKey("post", 2), body: PNG, contentType: "image/png" });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toMatch(/^public, max-age=\d+, immutable$/);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  });

  it("answers S3_PUBLIC_URL/{key} when a CDN is in front", async () => {
    const storage = createImageStorage({ ...s3Config(), S3_PUBLIC_URL: "https://cdn.example.jp/images" });
    expect(await storage.put({ key: hashKey("post", 3), body: PNG, contentType: "image/png" })).toBe(`https://cdn.example.jp/images/${hashKey("post", 3)}`);
  });

  it("puts a private object as a reference that is no URL, read through a presigned GET", async () => {
    const storage = createImageStorage(s3Config());
    const key = hashKey("chat", 4);
    const reference = await storage.put({ key, body: PNG, contentType: "image/png", visibility: "private" });
    expect(reference).toBe(`private:${key}`);
    expect(reference).not.toMatch(/^(https?:|\/)/);
    await expect(fetch(reference)).rejects.toThrow();
    // Not at the public key: the object lives under private/, which a bucket policy keeps out of public reads.
    expect((await fetch(`${endpoint}/${BUCKET}/${key}`)).status).toBe(404);

    const signed = await storage.signedUrl(reference, { expiresInSeconds: 60 });
    expect(signed).toMatch(new RegExp(`^${endpoint}/${BUCKET}/private/${key}\\?.*X-Amz-Signature=`));
    const response = await fetch(signed!);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  });

  it("refuses a presigned URL once it has expired", async () => {
    const storage = createImageStorage(s3Config());
    const reference = await storage.put({ key: hashKey("chat", 5), body: PNG, contentType: "image/png", visibility: "private" });
    const signed = (await storage.signedUrl(reference, { expiresInSeconds: 1 }))!;
    // X-Amz-Date has one-second resolution: after 2.2 s the one second is certainly over.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    const expired = await fetch(signed);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain("Request has expired");
  });

  it("removes public objects by URL and private ones by reference", async () => {
    const storage = createImageStorage(s3Config());
    const url = await storage.put({ key: hashKey("avatar", 6, "webp"), body: PNG, contentType: "image/webp" });
    const reference = await storage.put({ key: hashKey("chat", 7), body: PNG, contentType: "image/png", visibility: "private" });
    const signed = (await storage.signedUrl(reference, { expiresInSeconds: 60 }))!;
    expect((await fetch(url)).status).toBe(200);
    await storage.remove([url, reference, "https://elsewhere.example/not-ours.png"]);
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(signed)).status).toBe(404);
  });
});

describe("npm run storage:copy", () => {
  it("copies DATA_DIR/uploads into the bucket, and a second run copies nothing", async () => {
    const dataDir = fs.mkdtempSync(path.join(dir, "data-"));
    const uploads = localUploadsDir({ DATA_DIR: dataDir });
    const files = [hashKey("post", 100), hashKey("avatar", 101, "jpg"), hashKey("chat", 102, "gif")];
    for (const [i, key] of files.entries()) {
      fs.mkdirSync(path.join(uploads, path.dirname(key)), { recursive: true });
      fs.writeFileSync(path.join(uploads, key), Buffer.concat([PNG, Buffer.alloc(i)]));
    }
    fs.writeFileSync(path.join(uploads, `${files[0]}.123.abc.tmp`), "half a write");
    const run = async () => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runStorageCopyCommand([], { config: s3Config(dataDir), out: (line) => out.push(line), err: (line) => err.push(line) });
      return { code, out: out.join("\n"), err: err.join("\n") };
    };

    const first = await run();
    expect(first).toMatchObject({ code: 0, err: "" });
    expect(first.out).toContain("3 copied, 0 already there, 3 files");
    const second = await run();
    expect(second.out).toContain("0 copied, 3 already there, 3 files");

    for (const [i, key] of files.entries()) {
      const response = await fetch(`${endpoint}/${BUCKET}/${key}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe({ png: "image/png", jpg: "image/jpeg", gif: "image/gif" }[key.split(".").pop()!]);
      expect((await response.arrayBuffer()).byteLength).toBe(PNG.byteLength + i);
    }
    // A changed size (a file replaced by hand) is copied again.
    fs.writeFileSync(path.join(uploads, files[0]!), Buffer.concat([PNG, Buffer.alloc(9)]));
    expect((await run()).out).toContain("1 copied, 2 already there, 3 files");
    expect(await s3Storage(s3Config(dataDir)).sizeOf({ key: files[0]!, visibility: "public" })).toBe(PNG.byteLength + 9);
  });

  it("refuses to run without S3_BUCKET, or with arguments", async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (line: string) => err.push(line) };
    expect(await runStorageCopyCommand([], { ...io, config: { DATA_DIR: dir } })).toBe(1);
    expect(err.join("\n")).toContain("S3_BUCKET is not set");
    expect(await runStorageCopyCommand(["--everything"], { ...io, config: s3Config() })).toBe(1);
    expect(err.join("\n")).toContain("unexpected arguments: --everything");
    // Rewriting the rows needs the database (storage-copy.test.ts runs it with one).
    expect(await runStorageCopyCommand(["--rewrite-urls"], { ...io, config: s3Config(fs.mkdtempSync(path.join(dir, "empty-"))) })).toBe(1);
    expect(err.join("\n")).toContain("--rewrite-urls needs the database");
  });
});
