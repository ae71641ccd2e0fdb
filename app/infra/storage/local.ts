import { readdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { AppConfig } from "../config";
import { checkKey, keysOf, privateReference } from "./keys";
import type { ImageStorage } from "./types";

/** The folder the local storage writes public images to and server/app.ts serves at LOCAL_UPLOADS_PATH. */
export const localUploadsDir = (config: Pick<AppConfig, "DATA_DIR">) => path.join(path.resolve(config.DATA_DIR), "uploads");

/** Where the app serves the local disk's public images (server/app/static-files.ts). */
export const LOCAL_UPLOADS_PATH = "/uploads";
/** A local public image's URL: `/uploads/{key}`. */
export const localUploadUrl = (key: string) => `${LOCAL_UPLOADS_PATH}/${key}`;

/**
 * The files under a folder of images as paths relative to it with forward slashes, `{kind}/{sha256}.{ext}` (not the
 * .tmp of a write in progress), sorted; none when there is no folder.
 */
export function listLocalUploads(root: string): string[] {
  let entries;
  try {
    entries = readdirSync(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/** Private images: beside the served folder, never under it; the app is to serve them itself after its check (ADR 066). */
export const localPrivateUploadsDir = (config: Pick<AppConfig, "DATA_DIR">) => path.join(path.resolve(config.DATA_DIR), "uploads-private");

/**
 * The file of a private object on the local disk (`private:{key}`, what `put` answered), for the app to serve after its
 * permission check; null for anything that is not a private reference.
 */
export function localPrivateFile(config: Pick<AppConfig, "DATA_DIR">, reference: string): string | null {
  const [stored] = keysOf([reference]);
  return stored?.visibility === "private" ? path.join(localPrivateUploadsDir(config), stored.key) : null;
}

export function localDiskStorage(config: Pick<AppConfig, "DATA_DIR">): ImageStorage {
  const roots = { public: localUploadsDir(config), private: localPrivateUploadsDir(config) };
  return {
    async put({ key, body, visibility = "public" }) {
      checkKey(key);
      const file = path.join(roots[visibility], key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed into place: a reader never sees half a file, two writers of one hash agree.
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await fs.writeFile(temporary, body);
      await fs.rename(temporary, file);
      return visibility === "public" ? localUploadUrl(key) : privateReference(key);
    },
    async signedUrl() {
      return null;
    },
    async remove(urls) {
      for (const { key, visibility } of keysOf(urls)) await fs.rm(path.join(roots[visibility], key), { force: true });
    },
  };
}
