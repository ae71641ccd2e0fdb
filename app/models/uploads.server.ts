import { createHash } from "node:crypto";
import { sql } from "kysely";
import sharp, { type Metadata, type Sharp } from "sharp";
import type { Database, UploadKind } from "~/infra/db/tables";
import type { ImageStorage, Visibility } from "~/infra/storage";
import { AVATAR_SIDE, CHAT_IMAGE_SMALL_WIDTH, UPLOAD_MAX_INPUT_PIXELS, UPLOAD_MAX_SIDE, UPLOAD_RATE_LIMIT } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { rateLimitWindowCte } from "./rate-limit.server";

/**
 * Images people upload (docs/product.md#runtime, #constants; ADR 017). The type is judged by the bytes, never by the name or the declared
 * type; the container must end where the file ends (no polyglots); the image is decoded and re-encoded by sharp in
 * its own format, which drops every byte the decoder did not turn into pixels (EXIF, GPS, comments, appended data).
 */

/** A refused upload: its status and the Japanese message to show. */
export class UploadError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 413 | 429,
    message: string,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

export interface StoredImage {
  id: string;
  /** A public image's URL, or a private one's reference (`private:{key}`), shown only through /media. */
  url: string;
  /** A chat picture's small variant (the same as `url` when the picture is that small already); null for other kinds. */
  variantUrl: string | null;
  /** Private (a chat picture, a subscriber-only post's image): shown only through /media/{id} (ADR 069, 070). */
  isPrivate: boolean;
  width: number;
  height: number;
  contentType: string;
}

type ImageFormat = "jpeg" | "png" | "webp" | "gif";

const FORMATS: Record<ImageFormat, { contentType: string; extension: string }> = {
  jpeg: { contentType: "image/jpeg", extension: "jpg" },
  png: { contentType: "image/png", extension: "png" },
  webp: { contentType: "image/webp", extension: "webp" },
  gif: { contentType: "image/gif", extension: "gif" },
};

/** An image to store: whose, for what, the bytes as uploaded, and where to (a transaction is a Database too). */
interface ImageInput {
  db: Database;
  storage: ImageStorage;
  userId: string;
  kind: UploadKind;
  bytes: Uint8Array;
  /** A subscriber-only post's image: stored private, read by the author and active subscribers only (ADR 070). */
  subscribersOnly?: boolean;
}

/** `/media/{uploadId}`: how the API names a private upload (ADR 069). */
const MEDIA_URL = /^\/media\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

const invalidImage = () => new UploadError(400, messages.validation.checkInput);

/**
 * Re-encodes an image and stores it under its content hash, with its row in `uploads` (owned by userId).
 * A chat picture is private (ADR 069: readable only through /media, after the app's check) and gets a small variant
 * for thumbnails. No rate limit (the demo seed calls this); the API goes through acceptUpload.
 */
export async function storeImage({ db, storage, userId, kind, bytes, subscribersOnly = false }: ImageInput): Promise<StoredImage> {
  const format = sniffImage(bytes);
  if (!format) throw invalidImage();
  const { body, width, height } = await reencode(bytes, format, kind);
  const { contentType } = FORMATS[format];
  const visibility = kind === "chat" || (kind === "post" && subscribersOnly) ? "private" : "public";
  const url = await putImage(storage, { kind, format, body, visibility });
  let variantUrl: string | null = null;
  if (kind === "chat") {
    variantUrl = width > CHAT_IMAGE_SMALL_WIDTH ? await putImage(storage, { kind, format, body: await smallVariant(body, format), visibility }) : url;
  }
  const placeholder = kind === "avatar" ? null : await dominantColour(body);
  const row = await db
    .insertInto("uploads")
    .values({ owner_id: userId, kind, url, variant_url: variantUrl, placeholder, content_type: contentType, width, height, bytes: body.byteLength })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, url, variantUrl, isPrivate: visibility === "private", width, height, contentType };
}

/** Stores re-encoded bytes under `{kind}/{sha256}.{ext}`: what `put` answered (a URL, or a private reference). */
async function putImage(storage: ImageStorage, { kind, format, body, visibility }: { kind: UploadKind; format: ImageFormat; body: Uint8Array; visibility: Visibility }) {
  const { contentType, extension } = FORMATS[format];
  const hash = createHash("sha256").update(body).digest("hex");
  return storage.put({ key: `${kind}/${hash}.${extension}`, body, contentType, visibility });
}

/** The picture's dominant colour as `#rrggbb` (sharp's stats), painted in its box until the thumbnail arrives (ADR 070). */
async function dominantColour(body: Uint8Array) {
  const { dominant } = await sharp(body).stats();
  return `#${[dominant.r, dominant.g, dominant.b].map((channel) => channel.toString(16).padStart(2, "0")).join("")}`;
}

/** The thumbnail of an already re-encoded picture: CHAT_IMAGE_SMALL_WIDTH wide, in its own format (frames kept). */
async function smallVariant(body: Uint8Array, format: ImageFormat) {
  const image = sharp(body, { animated: format === "gif" || format === "webp" }).resize({ width: CHAT_IMAGE_SMALL_WIDTH, withoutEnlargement: true });
  return toBytes(await encoded(image, format).toBuffer());
}

/**
 * The API's way in: 20 uploads an hour per user (docs/product.md#constants), then storeImage. Every attempt counts, refused ones
 * too: judging and decoding an image is the expensive part.
 */
export async function acceptUpload(input: ImageInput): Promise<StoredImage> {
  // An upload belongs to a profile: a signed-in account that has not set one up yet is refused, not a foreign-key error.
  const owner = await input.db.selectFrom("users").select("id").where("id", "=", input.userId).executeTakeFirst();
  if (!owner) throw new UploadError(403, messages.profile.notSetUp);
  const { rows } = await sql<{ counted: number }>`
    with attempt as (select 1),
    ${rateLimitWindowCte({ bucket: `upload:user:${input.userId}`, ...UPLOAD_RATE_LIMIT, from: "attempt" })}
    select count(*)::int as counted from rate_limit_counted`.execute(input.db);
  if (Number(rows[0]?.counted ?? 0) === 0) throw new UploadError(429, messages.uploads.rateLimited);
  return storeImage(input);
}

/**
 * Forgets a chat picture whose message was refused after the plain form stored it (rate limit, a block): its row, and
 * its files unless another upload of the same bytes still names them (files are named by their content). Never one a
 * message shows.
 */
export async function forgetUnsentPicture({ db, storage, userId, uploadId }: { db: Database; storage: ImageStorage; userId: string; uploadId: string }) {
  const gone = await db
    .deleteFrom("uploads")
    .where("id", "=", uploadId)
    .where("owner_id", "=", userId)
    .where("kind", "=", "chat")
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("chat_messages").select("id").where("upload_id", "=", uploadId))))
    .returning(["url", "variant_url"])
    .executeTakeFirst();
  if (!gone) return;
  const urls = [...new Set([gone.url, gone.variant_url].filter((url): url is string => url !== null))];
  const kept = await db.selectFrom("uploads").select(["url", "variant_url"]).where((eb) => eb.or([eb("url", "in", urls), eb("variant_url", "in", urls)])).execute();
  const named = new Set(kept.flatMap((row) => [row.url, row.variant_url]));
  await storage.remove(urls.filter((url) => !named.has(url)));
}

/**
 * The user's own upload at that URL and of that kind (a post may show only its author's image), or undefined. A
 * private one is named by what the API answered for it, `/media/{id}` (its stored reference never leaves the server).
 */
export async function findOwnUpload({ db, userId, url, kind }: { db: Database; userId: string; url: string; kind: UploadKind }) {
  const mediaId = MEDIA_URL.exec(url)?.[1]?.toLowerCase();
  return db
    .selectFrom("uploads")
    .selectAll()
    .where("owner_id", "=", userId)
    .where((eb) => (mediaId ? eb.and([eb("id", "=", mediaId), eb("url", "like", "private:%")]) : eb("url", "=", url)))
    .where("kind", "=", kind)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

async function reencode(bytes: Uint8Array, format: ImageFormat, kind: UploadKind) {
  // An avatar is a still square; a post's or chat's GIF or WebP keeps its frames (resizing them is cheap for sharp).
  const animated = (format === "gif" || format === "webp") && kind !== "avatar";
  // failOn "error": a truncated or corrupt image is refused, not padded with grey; limitInputPixels: a decompression
  // bomb is refused from its header, before its pixels are decoded.
  const input = () => sharp(bytes, { failOn: "error", limitInputPixels: UPLOAD_MAX_INPUT_PIXELS, animated });
  try {
    const meta = await input().metadata();
    // libvips must read the same format the bytes claim to be.
    if (meta.format !== format) throw invalidImage();
    const pages = meta.pages ?? 1;
    let image = input();
    // Orientation from EXIF is applied to the pixels, since the EXIF itself goes.
    if (pages === 1) image = image.rotate();
    image =
      kind === "avatar"
        ? image.resize(avatarSide(meta), avatarSide(meta), { fit: "cover", position: "centre" })
        : image.resize(UPLOAD_MAX_SIDE, UPLOAD_MAX_SIDE, { fit: "inside", withoutEnlargement: true });
    const body = await encoded(image, format).toBuffer();
    const out = await sharp(body, { animated }).metadata();
    const width = out.width;
    const height = out.pageHeight ?? out.height;
    if (!width || !height) throw invalidImage();
    return { body: toBytes(body), width, height };
  } catch (error) {
    if (error instanceof UploadError) throw error;
    // Anything libvips cannot decode (truncated, corrupt, too many pixels) is the sender's input, not our failure.
    throw invalidImage();
  }
}

/** The image in its own format. No withMetadata/keepMetadata: sharp writes no EXIF, XMP, IPTC or comments, and converts to sRGB. */
function encoded(image: Sharp, format: ImageFormat) {
  if (format === "jpeg") return image.jpeg({ quality: 85, progressive: true });
  if (format === "png") return image.png({ compressionLevel: 8 });
  if (format === "webp") return image.webp({ quality: 85 });
  return image.gif();
}

const toBytes = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);

/** The side of an avatar's square: the shorter side of the upright image, at most AVATAR_SIDE (never enlarged). */
function avatarSide(meta: Metadata) {
  const width = meta.autoOrient?.width ?? meta.width ?? AVATAR_SIDE;
  const height = meta.autoOrient?.height ?? meta.height ?? AVATAR_SIDE;
  return Math.max(1, Math.min(AVATAR_SIDE, width, height));
}

// ---------------------------------------------------------------------------------------------------------------
// Judging the bytes: the format from the magic number, and the container walked to its end, which must be the end
// of the file. A valid image with an HTML page or a ZIP after it (a polyglot) is refused even though a decoder would
// read it happily: whatever else might sniff or unpack the original must never get it.

/** The image format of the bytes when they are exactly one well-formed JPEG, PNG, WebP or GIF container. */
export function sniffImage(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpegWithAppendedJpegs(bytes) ? "jpeg" : null;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return pngEnd(bytes) === bytes.length ? "png" : null;
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return webpEnd(bytes) === bytes.length ? "webp" : null;
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return gifEnd(bytes) === bytes.length ? "gif" : null;
  return null;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));
const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const u32be = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
const u32le = (bytes: Uint8Array, at: number) => bytes[at]! + (bytes[at + 1]! << 8) + (bytes[at + 2]! << 16) + ((bytes[at + 3]! << 24) >>> 0);

/**
 * Phones store a second JPEG after the first one's end (the Multi-Picture Format: an HDR gain map, a depth map):
 * a JPEG followed only by whole JPEGs is still a JPEG. At most a few.
 */
function jpegWithAppendedJpegs(bytes: Uint8Array) {
  let at = 0;
  for (let images = 0; images < 4 && at < bytes.length; images++) {
    if (!startsWith(bytes.subarray(at), [0xff, 0xd8, 0xff])) return false;
    const end = jpegEnd(bytes, at);
    if (end === null) return false;
    at = end;
  }
  return at === bytes.length;
}

/** Where the JPEG starting at `start` ends (just after its EOI), or null when it is cut short or malformed. */
function jpegEnd(bytes: Uint8Array, start: number): number | null {
  let at = start + 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    while (bytes[at] === 0xff) at++; // fill bytes
    const marker = bytes[at];
    if (marker === undefined) return null;
    at++;
    if (marker === 0xd9) return at; // EOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xd8 || marker === 0x00) return null;
    if (at + 2 > bytes.length) return null;
    const length = u16be(bytes, at);
    if (length < 2) return null;
    at += length;
    if (at > bytes.length) return null;
    if (marker === 0xda) {
      // Entropy-coded data until the next marker that is neither a stuffed 0x00 nor a restart marker.
      while (at + 1 < bytes.length && !(bytes[at] === 0xff && bytes[at + 1] !== 0x00 && !(bytes[at + 1]! >= 0xd0 && bytes[at + 1]! <= 0xd7))) at++;
      if (at + 1 >= bytes.length) return null;
    }
  }
  return null;
}

/** Just after the IEND chunk, or null. */
function pngEnd(bytes: Uint8Array): number | null {
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = u32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    at += 12 + length;
    if (at > bytes.length) return null;
    if (type === "IEND") return at;
  }
  return null;
}

/** The RIFF container's declared end (its size, padded to even), or null when the file is shorter. */
function webpEnd(bytes: Uint8Array): number | null {
  if (bytes.length < 16) return null;
  const size = u32le(bytes, 4);
  const end = 8 + size + (size % 2);
  return end <= bytes.length ? end : null;
}

/** Just after the trailer (0x3B), walking the blocks, or null. */
function gifEnd(bytes: Uint8Array): number | null {
  if (bytes.length < 13) return null;
  let at = 13;
  const screen = bytes[10]!;
  if (screen & 0x80) at += 3 * 2 ** ((screen & 0x07) + 1);
  const subBlocks = () => {
    while (at < bytes.length) {
      const size = bytes[at]!;
      at += 1 + size;
      if (size === 0) return true;
    }
    return false;
  };
  while (at < bytes.length) {
    const block = bytes[at]!;
    if (block === 0x3b) return at + 1;
    if (block === 0x21) {
      at += 2; // introducer and label
      if (!subBlocks()) return null;
    } else if (block === 0x2c) {
      if (at + 10 > bytes.length) return null;
      const packed = bytes[at + 9]!;
      at += 10;
      if (packed & 0x80) at += 3 * 2 ** ((packed & 0x07) + 1);
      at += 1; // LZW minimum code size
      if (!subBlocks()) return null;
    } else {
      return null;
    }
  }
  return null;
}
