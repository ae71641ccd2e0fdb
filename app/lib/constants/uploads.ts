/**
 * Image uploads (docs/product.md#runtime, #constants, ADR 017): at most 10 MB, judged by content, re-encoded with the longest side at most
 * 2048 px (an avatar a square of at most 512 px), 20 per hour per user. A decoded image above UPLOAD_MAX_INPUT_PIXELS
 * is refused before it is decoded (a small file can expand to gigabytes). The multipart form's text fields are
 * small; the form around the file may add at most UPLOAD_FORM_OVERHEAD_BYTES before a Content-Length is refused.
 * UPLOAD_MAX_BYTES, UPLOAD_MAX_SIDE and UPLOAD_RATE_LIMIT are with the posts' constants (posts.ts).
 */
export const UPLOAD_KINDS = ["post", "avatar", "chat"] as const;
export const AVATAR_SIDE = 512;
export const UPLOAD_MAX_INPUT_PIXELS = 50_000_000;
export const UPLOAD_FIELD_MAX_BYTES = 4 * 1024;
export const UPLOAD_FORM_MAX_FIELDS = 10;
export const UPLOAD_FORM_OVERHEAD_BYTES = 64 * 1024;
/** Stored images are named by their content's hash, so a URL's bytes never change: cached for a year. */
export const UPLOAD_CACHE_MAX_AGE_SECONDS = 365 * 24 * 3600;
/** A chat picture's small variant, for thumbnails in the room (docs/product.md#chat): this wide at most. */
export const CHAT_IMAGE_SMALL_WIDTH = 480;
/** A private picture served by the app (/media on local disk): the browser may keep it this long, for this person only. */
export const MEDIA_CACHE_MAX_AGE_SECONDS = 3600;
/** A private picture handed out by an object store: its signed URL reads it for this long. */
export const MEDIA_SIGNED_URL_SECONDS = 300;
/** Objects of the image store removed per sweep (ADR 070); what is left waits for the next. */
export const MEDIA_REMOVAL_BATCH = 100;
