import type { Visibility } from "./keys";

/**
 * Where re-encoded images go (docs/product.md#runtime, ADR 017, ADR 066): files under DATA_DIR/uploads served by the
 * app, a Supabase Storage bucket, or an S3-API bucket. Keys are content hashes, so an object never changes once written.
 */
export interface ImageStorage {
  /**
   * Stores the object (overwriting an identical one). A public object (the default) answers its public URL; a private
   * one answers `private:{key}`, a reference no browser can fetch, to be shown through `signedUrl`.
   */
  put(object: { key: string; body: Uint8Array; contentType: string; visibility?: Visibility }): Promise<string>;
  /**
   * A URL that reads the object for a short while, to hand out after the app's own permission check: a presigned GET
   * (S3), a signed URL (Supabase). Null on local disk: there the app serves the object itself after its check.
   * Takes a key, a private reference or a public URL.
   */
  signedUrl(keyOrReference: string, options: { expiresInSeconds: number }): Promise<string | null>;
  /** Removes the objects at these URLs or references (what `put` answered); anything not this storage's is skipped. */
  remove(urls: string[]): Promise<void>;
}
