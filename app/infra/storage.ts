import fs from "node:fs/promises";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { UPLOAD_CACHE_MAX_AGE_SECONDS } from "~/lib/constants";
import type { AppConfig } from "./config";

/**
 * Where re-encoded images go (docs/product.md#runtime): files under DATA_DIR/uploads served by the app, or a Supabase Storage
 * bucket when Supabase is configured. Keys are content hashes, so an object never changes once written.
 */
export interface ImageStorage {
  /** Stores the object (overwriting an identical one) and answers its public URL. */
  put(object: { key: string; body: Uint8Array; contentType: string }): Promise<string>;
  /** Removes the objects at these public URLs (what `put` answered); URLs that are not this storage's are skipped. */
  remove(urls: string[]): Promise<void>;
}

/** The folder the local storage writes to and server/app.ts serves at /uploads. */
export const localUploadsDir = (config: Pick<AppConfig, "DATA_DIR">) => path.join(path.resolve(config.DATA_DIR), "uploads");

/** Keys are `{kind}/{sha256}.{ext}`: anything else would be a path the storage must not write. */
const KEY_PATTERN = /^[a-z]+\/[0-9a-f]{64}\.(jpg|png|webp|gif)$/;

export function createImageStorage(
  config: Pick<AppConfig, "DATA_DIR" | "SUPABASE_URL" | "SUPABASE_ANON_KEY" | "SUPABASE_SERVICE_ROLE_KEY" | "SUPABASE_STORAGE_BUCKET">,
): ImageStorage {
  if (config.SUPABASE_URL) return supabaseStorage(config);
  const root = localUploadsDir(config);
  return {
    async put({ key, body }) {
      checkKey(key);
      const file = path.join(root, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed into place: a reader never sees half a file, two writers of one hash agree.
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await fs.writeFile(temporary, body);
      await fs.rename(temporary, file);
      return `/uploads/${key}`;
    },
    async remove(urls) {
      for (const key of keysOf(urls)) await fs.rm(path.join(root, key), { force: true });
    },
  };
}

function supabaseStorage(
  config: Pick<AppConfig, "SUPABASE_URL" | "SUPABASE_ANON_KEY" | "SUPABASE_SERVICE_ROLE_KEY" | "SUPABASE_STORAGE_BUCKET">,
): ImageStorage {
  // The service role key writes whatever the bucket's policies say; the anon key only where a policy allows it.
  const key = config.SUPABASE_SERVICE_ROLE_KEY ?? config.SUPABASE_ANON_KEY!;
  const supabase = createClient(config.SUPABASE_URL!, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // supabase-js builds its realtime client even when unused; Node 20 has no global WebSocket.
    realtime: { transport: WebSocket as never },
  });
  const bucket = supabase.storage.from(config.SUPABASE_STORAGE_BUCKET);
  return {
    async put({ key: objectKey, body, contentType }) {
      checkKey(objectKey);
      const { error } = await bucket.upload(objectKey, Buffer.from(body.buffer, body.byteOffset, body.byteLength), {
        contentType,
        upsert: true,
        cacheControl: String(UPLOAD_CACHE_MAX_AGE_SECONDS),
      });
      if (error) throw new Error(`Supabase Storage upload failed: ${error.message}`);
      return bucket.getPublicUrl(objectKey).data.publicUrl;
    },
    async remove(urls) {
      const keys = keysOf(urls);
      if (keys.length === 0) return;
      const { error } = await bucket.remove(keys);
      if (error) throw new Error(`Supabase Storage remove failed: ${error.message}`);
    },
  };
}

/** The storage keys at the end of these URLs (`…/{kind}/{sha256}.{ext}`), skipping anything else. */
function keysOf(urls: string[]) {
  return urls.flatMap((url) => {
    const key = /([a-z]+\/[0-9a-f]{64}\.(?:jpg|png|webp|gif))$/.exec(url.split(/[?#]/)[0]!)?.[1];
    return key && KEY_PATTERN.test(key) ? [key] : [];
  });
}

function checkKey(key: string) {
  if (!KEY_PATTERN.test(key)) throw new Error(`not an image storage key: ${key}`);
}
