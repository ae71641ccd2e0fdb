import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createImageStorage, localPrivateFile, localUploadsDir, privateImagesOrigin, publicImagesOrigin } from "../../app/infra/storage";
import { keysOf } from "../../app/infra/storage/keys";
import { temporaryFolders } from "../support/temp-dirs";

// The local disk's part of ADR 066; the S3-API backend: test/integration/object-storage.test.ts.
const KEY = `post/${"a".repeat(64)}.png`;
const tempDir = temporaryFolders("gm-storage-");

describe("local image storage", () => {
  it("keeps public images under the served folder and private ones beside it, with no signed URL", async () => {
    const DATA_DIR = tempDir();
    const storage = createImageStorage({ DATA_DIR, SUPABASE_STORAGE_BUCKET: "uploads" });
    expect(await storage.put({ key: KEY, body: Buffer.from("public"), contentType: "image/png" })).toBe(`/uploads/${KEY}`);
    expect(await storage.put({ key: KEY, body: Buffer.from("private"), contentType: "image/png", visibility: "private" })).toBe(`private:${KEY}`);
    expect(fs.readFileSync(path.join(localUploadsDir({ DATA_DIR }), KEY), "utf8")).toBe("public");
    expect(fs.readFileSync(path.join(DATA_DIR, "uploads-private", KEY), "utf8")).toBe("private");
    // The app serves private images itself after its permission check.
    expect(await storage.signedUrl(`private:${KEY}`, { expiresInSeconds: 60 })).toBeNull();

    await storage.remove([`private:${KEY}`]);
    expect(fs.existsSync(path.join(DATA_DIR, "uploads-private", KEY))).toBe(false);
    expect(fs.existsSync(path.join(localUploadsDir({ DATA_DIR }), KEY))).toBe(true);
    await storage.remove([`/uploads/${KEY}`]);
    expect(fs.existsSync(path.join(localUploadsDir({ DATA_DIR }), KEY))).toBe(false);
  });

  it("refuses a key that is not {kind}/{sha256}.{ext}", async () => {
    const storage = createImageStorage({ DATA_DIR: tempDir(), SUPABASE_STORAGE_BUCKET: "uploads" });
    await expect(storage.put({ key: "../secrets.json", body: Buffer.from("x"), contentType: "image/png" })).rejects.toThrow(/not an image storage key/);
  });
});

describe("keysOf", () => {
  it("reads keys from public URLs, private references and bare keys, and nothing else", () => {
    expect(
      keysOf([
        `/uploads/${KEY}`,
        `https://cdn.example.jp/private/${KEY}?v=1`,
        `private:${KEY}`,
        KEY,
        "https://example.jp/post/not-a-hash.png",
        `/uploads/../${KEY}x`,
      ]),
    ).toEqual([
      { key: KEY, visibility: "public" },
      { key: KEY, visibility: "public" },
      { key: KEY, visibility: "private" },
      { key: KEY, visibility: "public" },
    ]);
  });
});

describe("publicImagesOrigin", () => {
  const base = { DATA_DIR: "./data", SUPABASE_STORAGE_BUCKET: "uploads" };
  const s3 = { ...base, S3_BUCKET: "gm-images", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret" };
  it("names the origin the CSP must allow images from, by the storage's precedence", () => {
    expect(publicImagesOrigin(base)).toBeUndefined();
    expect(publicImagesOrigin({ ...base, SUPABASE_URL: "https://abc.supabase.co" })).toBe("https://abc.supabase.co");
    expect(publicImagesOrigin({ ...s3, SUPABASE_URL: "https://abc.supabase.co" })).toBe("https://gm-images.s3.us-east-1.amazonaws.com");
    expect(publicImagesOrigin({ ...s3, S3_ENDPOINT: "https://minio.example.jp:9000" })).toBe("https://minio.example.jp:9000");
    expect(publicImagesOrigin({ ...s3, S3_ENDPOINT: "https://r2.example.jp", S3_FORCE_PATH_STYLE: false })).toBe("https://gm-images.r2.example.jp");
    expect(publicImagesOrigin({ ...s3, S3_PUBLIC_URL: "https://cdn.example.jp/images" })).toBe("https://cdn.example.jp");
  });
});

describe("privateImagesOrigin (ADR 069)", () => {
  const base = { DATA_DIR: "./data", SUPABASE_STORAGE_BUCKET: "uploads" };
  const s3 = { ...base, S3_BUCKET: "gm-images", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret" };
  it("names where signed URLs point: the bucket's own endpoint even behind a CDN, Supabase's URL, none on the local disk", () => {
    expect(privateImagesOrigin(base)).toBeUndefined();
    expect(privateImagesOrigin({ ...base, SUPABASE_URL: "https://abc.supabase.co" })).toBe("https://abc.supabase.co");
    expect(privateImagesOrigin({ ...s3, S3_PUBLIC_URL: "https://cdn.example.jp/images" })).toBe("https://gm-images.s3.us-east-1.amazonaws.com");
    expect(privateImagesOrigin({ ...s3, S3_ENDPOINT: "https://minio.example.jp:9000", S3_PUBLIC_URL: "https://cdn.example.jp" })).toBe("https://minio.example.jp:9000");
    expect(privateImagesOrigin({ ...s3, S3_ENDPOINT: "https://r2.example.jp", S3_FORCE_PATH_STYLE: false })).toBe("https://gm-images.r2.example.jp");
  });
});

describe("localPrivateFile (ADR 069)", () => {
  it("is the file of a private reference under DATA_DIR/uploads-private, and nothing for anything else", () => {
    const DATA_DIR = tempDir();
    const chatKey = `chat/${"b".repeat(64)}.jpg`;
    expect(localPrivateFile({ DATA_DIR }, `private:${chatKey}`)).toBe(path.join(path.resolve(DATA_DIR), "uploads-private", chatKey));
    for (const other of [`/uploads/${chatKey}`, chatKey, "private:../secrets.json", `private:chat/${"b".repeat(63)}.jpg`, "private:chat/x.svg"]) {
      expect(localPrivateFile({ DATA_DIR }, other), other).toBeNull();
    }
  });
});
