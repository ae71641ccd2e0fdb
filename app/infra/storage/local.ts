import fs from "node:fs/promises";
import path from "node:path";
import type { AppConfig } from "../config";
import { checkKey, keysOf, privateReference } from "./keys";
import type { ImageStorage } from "./types";

/** The folder the local storage writes public images to and server/app.ts serves at /uploads. */
export const localUploadsDir = (config: Pick<AppConfig, "DATA_DIR">) => path.join(path.resolve(config.DATA_DIR), "uploads");

/** Private images: beside the served folder, never under it; the app is to serve them itself after its check (ADR 066). */
export const localPrivateUploadsDir = (config: Pick<AppConfig, "DATA_DIR">) => path.join(path.resolve(config.DATA_DIR), "uploads-private");

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
      return visibility === "public" ? `/uploads/${key}` : privateReference(key);
    },
    async signedUrl() {
      return null;
    },
    async remove(urls) {
      for (const { key, visibility } of keysOf(urls)) await fs.rm(path.join(roots[visibility], key), { force: true });
    },
  };
}
