import fs from "node:fs/promises";
import path from "node:path";
import type { AppConfig } from "../app/infra/config";
import type { Database } from "../app/infra/db/tables";
import { listLocalUploads, localUploadsDir } from "../app/infra/storage";
import { contentTypeOf, KEY_PATTERN } from "../app/infra/storage/keys";
import { s3PublicBase, s3Storage, type S3Settings } from "../app/infra/storage/s3";
import { pointLocalUploadsAt } from "../app/models/upload-urls.server";

/**
 * `npm run storage:copy` (docs/operations.md#choosing-and-migrating-an-object-store, ADR 066): copies every image under
 * DATA_DIR/uploads into the S3_BUCKET under the same key, skipping objects already there with the same size, so a
 * second run copies nothing. Apart from its entry (storage-copy-cli.ts) so tests run it against their own bucket and
 * database. Without `--rewrite-urls` rows keep their `/uploads/…` URLs, which a replica holding DATA_DIR/uploads still
 * serves; with it, once every image is in the bucket, the rows naming them point at the bucket's public URL instead,
 * in one transaction (ADR 066).
 */

export const STORAGE_COPY_USAGE = `usage: npm run storage:copy [-- --rewrite-urls]
  copies the images under DATA_DIR/uploads into S3_BUCKET (same keys); objects already there with the same size are skipped
  --rewrite-urls  then points the database's /uploads/… URLs (uploads, avatars) at the bucket's public URL`;

type CopyConfig = Pick<AppConfig, "DATA_DIR"> & S3Settings;

/** Runs the copy; answers the process's exit code. */
export async function runStorageCopyCommand(
  args: readonly string[],
  { config, db, out, err }: { config: CopyConfig; db?: () => Promise<Database>; out: (line: string) => void; err: (line: string) => void },
) {
  const rewriteUrls = args.length === 1 && args[0] === "--rewrite-urls";
  if (args.length > 0 && !rewriteUrls) {
    err(`unexpected arguments: ${args.join(" ")}`);
    err(STORAGE_COPY_USAGE);
    return 1;
  }
  if (!config.S3_BUCKET) {
    err("S3_BUCKET is not set: there is no bucket to copy into (docs/operations.md#choosing-and-migrating-an-object-store)");
    return 1;
  }
  const s3 = { ...config, S3_BUCKET: config.S3_BUCKET };
  const bucket = s3Storage(s3);
  const root = localUploadsDir(config);
  const files = listLocalUploads(root);
  const images = files.filter((file) => KEY_PATTERN.test(file));
  let copied = 0;
  let skipped = 0;
  for (const key of images) {
    const body = await fs.readFile(path.join(root, key));
    if ((await bucket.sizeOf({ key, visibility: "public" })) === body.byteLength) {
      skipped++;
      continue;
    }
    await bucket.put({ key, body, contentType: contentTypeOf(key) });
    copied++;
  }
  for (const file of files) if (!images.includes(file)) err(`[storage:copy] not an image key, left alone: ${file}`);
  out(`[storage:copy] ${root} → s3 bucket ${config.S3_BUCKET}: ${copied} copied, ${skipped} already there, ${files.length} files`);
  if (rewriteUrls) {
    if (!db) {
      err("[storage:copy] --rewrite-urls needs the database");
      return 1;
    }
    // Only what is in the bucket now: every image above was copied or already there (a failed put threw before this).
    const publicBase = s3PublicBase(s3);
    const changed = await pointLocalUploadsAt(await db(), { keys: images, publicBase });
    out(`[storage:copy] database: ${changed.uploads} uploads and ${changed.avatars} avatars now at ${publicBase}/…`);
  }
  return 0;
}
