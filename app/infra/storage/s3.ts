import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { AppConfig } from "../config";
import { bucketPathOf, CACHE_CONTROL, checkKey, keysOf, privateReference, type StoredKey } from "./keys";
import type { ImageStorage } from "./types";

/** The S3_ variables, any of them unset. */
export type S3Settings = Partial<Pick<AppConfig, "S3_BUCKET" | "S3_ENDPOINT" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "S3_PUBLIC_URL" | "S3_FORCE_PATH_STYLE">>;
/** The S3_ variables of a configured bucket. */
export type S3Config = S3Settings & { S3_BUCKET: string };

/** An S3-API bucket's storage, with what `npm run storage:copy` needs besides: the size of an object already there. */
export interface S3ImageStorage extends ImageStorage {
  /** The object's size in bytes, or null when there is none. */
  sizeOf(stored: StoredKey): Promise<number | null>;
}

const regionOf = (config: S3Config) => config.S3_REGION ?? "us-east-1";
/** Path-style URLs (endpoint/bucket/key) unless said otherwise where there is an endpoint: MinIO and Ceph need them. */
const pathStyleOf = (config: S3Config) => config.S3_FORCE_PATH_STYLE ?? Boolean(config.S3_ENDPOINT);

/** Where public objects are read: S3_PUBLIC_URL, else the bucket's own URL (path-style or virtual-host). */
export function s3PublicBase(config: S3Config) {
  if (config.S3_PUBLIC_URL) return config.S3_PUBLIC_URL;
  if (!config.S3_ENDPOINT) return `https://${config.S3_BUCKET}.s3.${regionOf(config)}.amazonaws.com`;
  return pathStyleOf(config) ? `${config.S3_ENDPOINT}/${config.S3_BUCKET}` : config.S3_ENDPOINT.replace("://", `://${config.S3_BUCKET}.`);
}

/**
 * AWS S3, Cloudflare R2, MinIO, Ceph: one client (ADR 066). Public objects are read at S3_PUBLIC_URL/{key}, or the
 * bucket's own URL; private ones only through presigned GETs.
 */
export function s3Storage(config: S3Config): S3ImageStorage {
  const client = new S3Client({
    region: regionOf(config),
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: pathStyleOf(config),
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID ?? "", secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? "" },
    // The SDK's default CRC checksums on every request are not understood by every S3-API server (older MinIO, Ceph).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = config.S3_BUCKET;
  const publicBase = s3PublicBase(config);
  return {
    async put({ key, body, contentType, visibility = "public" }) {
      checkKey(key);
      const stored = { key, visibility };
      await client.send(new PutObjectCommand({ Bucket, Key: bucketPathOf(stored), Body: body, ContentType: contentType, CacheControl: CACHE_CONTROL[visibility] }));
      return visibility === "public" ? `${publicBase}/${key}` : privateReference(key);
    },
    async signedUrl(keyOrReference, { expiresInSeconds }) {
      const [stored] = keysOf([keyOrReference]);
      if (!stored) return null;
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: bucketPathOf(stored) }), { expiresIn: expiresInSeconds });
    },
    async remove(urls) {
      // One DELETE per object: DeleteObjects needs a body checksum that not every S3-API server takes alike; removals are few.
      for (const stored of keysOf(urls)) await client.send(new DeleteObjectCommand({ Bucket, Key: bucketPathOf(stored) }));
    },
    async sizeOf(stored) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: bucketPathOf(stored) }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
        throw error;
      }
    },
  };
}
