import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { UPLOAD_CACHE_MAX_AGE_SECONDS } from "~/lib/constants";
import type { AppConfig } from "../config";
import { bucketPathOf, checkKey, keysOf, privateReference } from "./keys";
import type { ImageStorage } from "./types";

type SupabaseConfig = Pick<AppConfig, "SUPABASE_ANON_KEY" | "SUPABASE_SERVICE_ROLE_KEY" | "SUPABASE_STORAGE_BUCKET"> & { SUPABASE_URL: string };

export function supabaseStorage(config: SupabaseConfig): ImageStorage {
  // The service role key writes whatever the bucket's policies say; the anon key only where a policy allows it.
  const key = config.SUPABASE_SERVICE_ROLE_KEY ?? config.SUPABASE_ANON_KEY!;
  const supabase = createClient(config.SUPABASE_URL, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // supabase-js builds its realtime client even when unused; Node 20 has no global WebSocket.
    realtime: { transport: WebSocket as never },
  });
  const bucket = supabase.storage.from(config.SUPABASE_STORAGE_BUCKET);
  return {
    async put({ key: objectKey, body, contentType, visibility = "public" }) {
      checkKey(objectKey);
      const objectPath = bucketPathOf({ key: objectKey, visibility });
      const { error } = await bucket.upload(objectPath, Buffer.from(body.buffer, body.byteOffset, body.byteLength), {
        contentType,
        upsert: true,
        cacheControl: visibility === "public" ? String(UPLOAD_CACHE_MAX_AGE_SECONDS) : "0",
      });
      if (error) throw new Error(`Supabase Storage upload failed: ${error.message}`);
      return visibility === "public" ? bucket.getPublicUrl(objectPath).data.publicUrl : privateReference(objectKey);
    },
    async signedUrl(keyOrReference, { expiresInSeconds }) {
      const [stored] = keysOf([keyOrReference]);
      if (!stored) return null;
      const { data, error } = await bucket.createSignedUrl(bucketPathOf(stored), expiresInSeconds);
      if (error) throw new Error(`Supabase Storage signed URL failed: ${error.message}`);
      return data.signedUrl;
    },
    async remove(urls) {
      const paths = keysOf(urls).map(bucketPathOf);
      if (paths.length === 0) return;
      const { error } = await bucket.remove(paths);
      if (error) throw new Error(`Supabase Storage remove failed: ${error.message}`);
    },
  };
}
