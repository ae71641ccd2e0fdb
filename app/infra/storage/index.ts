import type { AppConfig } from "../config";
import type { ImageStorage } from "./types";
import { localDiskStorage } from "./local";
import { s3PublicBase, s3Storage, type S3Settings } from "./s3";
import { supabaseStorage } from "./supabase";

export { listLocalUploads, LOCAL_UPLOADS_PATH, localPrivateFile, localPrivateUploadsDir, localUploadsDir, localUploadUrl } from "./local";
export { contentTypeOf, PRIVATE_REFERENCE_PREFIX } from "./keys";
export type { Visibility } from "./keys";
export type { ImageStorage } from "./types";

export type StorageConfig = Pick<AppConfig, "DATA_DIR" | "SUPABASE_URL" | "SUPABASE_ANON_KEY" | "SUPABASE_SERVICE_ROLE_KEY" | "SUPABASE_STORAGE_BUCKET"> & S3Settings;

/** S3 when S3_BUCKET is set, else Supabase Storage when SUPABASE_URL is, else the local disk (ADR 066). */
export function createImageStorage(config: StorageConfig): ImageStorage {
  if (config.S3_BUCKET) return s3Storage({ ...config, S3_BUCKET: config.S3_BUCKET });
  if (config.SUPABASE_URL) return supabaseStorage({ ...config, SUPABASE_URL: config.SUPABASE_URL });
  return localDiskStorage(config);
}

/**
 * The origin private images' signed URLs point at (the CSP's img-src lists it; ADR 069): the bucket's own endpoint on
 * S3 (not S3_PUBLIC_URL, a CDN that cannot check a signature), Supabase's; none on the local disk, which serves them itself.
 */
export function privateImagesOrigin(config: StorageConfig): string | undefined {
  if (config.S3_BUCKET) return new URL(s3PublicBase({ ...config, S3_BUCKET: config.S3_BUCKET, S3_PUBLIC_URL: undefined })).origin;
  if (config.SUPABASE_URL) return new URL(config.SUPABASE_URL).origin;
  return undefined;
}

/** The origin public images are read from when it is not the app's own (the CSP's img-src lists it), by the same precedence. */
export function publicImagesOrigin(config: StorageConfig): string | undefined {
  if (config.S3_BUCKET) return new URL(s3PublicBase({ ...config, S3_BUCKET: config.S3_BUCKET })).origin;
  if (config.SUPABASE_URL) return new URL(config.SUPABASE_URL).origin;
  return undefined;
}
