/** Posts, profiles and footprints (docs/product.md#validation, #constants; docs/product.md#data, #constants). */
export const POST_MAX = 500;
export const POST_RATE_LIMIT = { limit: 5, windowMs: 60_000 } as const;
export const POSTS_PAGE_SIZE = 20;
export const POSTS_LIMIT_MAX = 50;
export const GALLERY_PAGE_SIZE = 30;
export const FOOTPRINTS_PAGE_SIZE = 50;
/** A profile's overview shows this many of the user's active listings. */
export const PROFILE_LISTINGS_MAX = 6;
/** Uploads (docs/product.md#constants): at most this many bytes, judged by content, re-encoded with the longest side at most 2048 px. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_MAX_SIDE = 2048;
export const UPLOAD_RATE_LIMIT = { limit: 20, windowMs: 3600_000 } as const;
/** What a browser may offer to upload (the server judges the bytes, whatever the type says). */
export const UPLOAD_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
