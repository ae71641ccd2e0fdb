import { UPLOAD_CACHE_MAX_AGE_SECONDS } from "~/lib/constants";

/** Keys are `{kind}/{sha256}.{ext}`: anything else would be a path the storage must not write. */
export const KEY_PATTERN = /^[a-z]+\/[0-9a-f]{64}\.(jpg|png|webp|gif)$/;

/**
 * What `put` answers for a private object: `private:{key}`. Not a URL a browser can fetch (no http(s), not a path that
 * resolves against the page), so it can only be shown through `signedUrl` or the app's own check (ADR 066).
 */
export const PRIVATE_REFERENCE_PREFIX = "private:";

/** Where a private object lives inside a bucket, so that a bucket policy can leave this prefix out of public reads. */
const PRIVATE_FOLDER = "private/";

export type Visibility = "public" | "private";

/** The object's path in a bucket (S3, Supabase Storage): private ones under `private/`, which a bucket policy leaves out of public reads. */
export const bucketPathOf = ({ key, visibility }: StoredKey) => (visibility === "private" ? `${PRIVATE_FOLDER}${key}` : key);

export const CACHE_CONTROL: Record<Visibility, string> = {
  // Keys are content hashes: an object never changes once written.
  public: `public, max-age=${UPLOAD_CACHE_MAX_AGE_SECONDS}, immutable`,
  private: "private, no-store",
};

const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif" };

/** The content type of a key, by its extension (the extension is the format sharp wrote). */
export function contentTypeOf(key: string) {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

export function privateReference(key: string) {
  return `${PRIVATE_REFERENCE_PREFIX}${key}`;
}

export interface StoredKey {
  key: string;
  visibility: Visibility;
}

/**
 * The storage keys of these public URLs (`…/{kind}/{sha256}.{ext}`), private references (`private:{key}`) or bare keys
 * (public), skipping anything else. Only the reference marks an object private: a bucket may be named "private".
 */
export function keysOf(urls: readonly string[]): StoredKey[] {
  return urls.flatMap((url) => {
    const plain = url.split(/[?#]/)[0]!;
    const key = /(?:^|\/|:)([a-z]+\/[0-9a-f]{64}\.(?:jpg|png|webp|gif))$/.exec(plain)?.[1];
    if (!key || !KEY_PATTERN.test(key)) return [];
    return [{ key, visibility: plain === privateReference(key) ? "private" : "public" } satisfies StoredKey];
  });
}

export function checkKey(key: string) {
  if (!KEY_PATTERN.test(key)) throw new Error(`not an image storage key: ${key}`);
}
