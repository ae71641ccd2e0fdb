import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImageStorage } from "../../app/infra/storage";
import { runStorageCopyCommand } from "../../server/storage-copy-command";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { startS3Server } from "../support/s3-server";

/**
 * `npm run storage:copy -- --rewrite-urls` (ADR 066) on each engine: the images go into an S3-API bucket (s3rver, on a
 * port of its own) and, in one transaction, the rows that named them at `/uploads/…` (uploads, avatars) name the
 * bucket's public URL instead; a row whose image is not on this disk keeps its URL, and a second run changes nothing.
 */

const BUCKET = "gm-copy";
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const keyOf = (kind: string, n: number) => `${kind}/${n.toString(16).padStart(64, "0")}.png`;

let server: Awaited<ReturnType<typeof startS3Server>>;
let dir: string;
let database: TestDatabase;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-copy-"));
  server = await startS3Server(dir, BUCKET);
  // The demo accounts' own images go to a disk of their own: their rows name images that are not on the disk copied
  // below, and must keep their URLs.
  database = await createTestDatabase({ seed: true, demoAccounts: true, storage: createImageStorage({ DATA_DIR: path.join(dir, "seed"), SUPABASE_STORAGE_BUCKET: "uploads" }) });
}, 60_000);

afterAll(async () => {
  await database?.dispose();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run storage:copy -- --rewrite-urls", () => {
  it("points the uploads and avatars at the bucket once their images are there, leaves the others, and changes nothing the second time", async () => {
    const db = database.db;
    const [owner, other] = await db.selectFrom("users").select("id").orderBy("id").limit(2).execute();
    const dataDir = path.join(dir, "data");
    const onDisk = [keyOf("post", 1), keyOf("avatar", 2)];
    const missing = keyOf("post", 3);
    for (const key of onDisk) {
      fs.mkdirSync(path.join(dataDir, "uploads", path.dirname(key)), { recursive: true });
      fs.writeFileSync(path.join(dataDir, "uploads", key), PNG);
    }
    const row = (key: string, kind: "post" | "avatar") => ({ owner_id: owner!.id, kind, url: `/uploads/${key}`, content_type: "image/png", width: 1, height: 1, bytes: PNG.byteLength });
    await db.insertInto("uploads").values([row(onDisk[0]!, "post"), row(onDisk[1]!, "avatar"), row(missing, "post")]).execute();
    await db.updateTable("users").set({ avatar_url: `/uploads/${onDisk[1]}` }).where("id", "=", owner!.id).execute();
    await db.updateTable("users").set({ avatar_url: "https://cdn.example.jp/someone-else.png" }).where("id", "=", other!.id).execute();

    const config = { DATA_DIR: dataDir, ...server.settings };
    const run = async () => {
      const out: string[] = [];
      const code = await runStorageCopyCommand(["--rewrite-urls"], { config, db: async () => db, out: (line) => out.push(line), err: () => {} });
      return { code, out: out.join("\n") };
    };

    const first = await run();
    expect(first.code).toBe(0);
    expect(first.out).toContain("2 copied, 0 already there, 2 files");
    expect(first.out).toContain("database: 2 uploads and 1 avatars now at");
    const base = `${server.endpoint}/${BUCKET}`;
    const urls = await db.selectFrom("uploads").select("url").where("owner_id", "=", owner!.id).orderBy("url").execute();
    expect(urls.map((entry) => entry.url)).toEqual(expect.arrayContaining([`${base}/${onDisk[0]}`, `${base}/${onDisk[1]}`, `/uploads/${missing}`]));
    // The demo accounts' images are not on this disk: not one of their rows moved.
    expect(await db.selectFrom("uploads").select("url").where("url", "like", `${base}/%`).execute()).toHaveLength(2);
    const avatars = await db.selectFrom("users").select(["id", "avatar_url"]).where("id", "in", [owner!.id, other!.id]).execute();
    expect(Object.fromEntries(avatars.map((user) => [user.id, user.avatar_url]))).toEqual({
      [owner!.id]: `${base}/${onDisk[1]}`,
      [other!.id]: "https://cdn.example.jp/someone-else.png",
    });
    // What the rows now name is there.
    for (const key of onDisk) expect((await fetch(`${base}/${key}`)).status).toBe(200);

    const second = await run();
    expect(second.code).toBe(0);
    expect(second.out).toContain("0 copied, 2 already there, 2 files");
    expect(second.out).toContain("database: 0 uploads and 0 avatars now at");
  });
});
