import { describe, expect, it, vi } from "vitest";
import { decideChunkReload, reloadOnceOrThrow } from "~/lib/chunk-reload";

function memoryStorage() {
  const values = new Map<string, string>();
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value) };
}

describe("a failed chunk load (docs/product.md#screens, #errors)", () => {
  it("reloads the first time on a path", () => {
    expect(decideChunkReload({ storage: memoryStorage(), path: "/support", now: 0 })).toBe("reload");
  });

  it("rethrows a second failure on the same path within 10 seconds", () => {
    const storage = memoryStorage();
    decideChunkReload({ storage, path: "/support", now: 1_000 });
    expect(decideChunkReload({ storage, path: "/support", now: 10_999 })).toBe("rethrow");
  });

  it("reloads again once 10 seconds have passed", () => {
    const storage = memoryStorage();
    decideChunkReload({ storage, path: "/support", now: 1_000 });
    expect(decideChunkReload({ storage, path: "/support", now: 11_000 })).toBe("reload");
  });

  it("counts each path on its own", () => {
    const storage = memoryStorage();
    decideChunkReload({ storage, path: "/support", now: 1_000 });
    expect(decideChunkReload({ storage, path: "/terms", now: 2_000 })).toBe("reload");
  });

  it("ignores a corrupt stored entry", () => {
    const storage = memoryStorage();
    storage.setItem("gm:chunk-reload", "{not json");
    expect(decideChunkReload({ storage, path: "/", now: 0 })).toBe("reload");
  });

  it("reloadOnceOrThrow reloads, then throws the original error", () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const error = new Error("Failed to fetch dynamically imported module");
    const pending = reloadOnceOrThrow(error, { storage, path: "/inquiry", now: 5_000, reload });
    expect(pending).toBeInstanceOf(Promise);
    expect(reload).toHaveBeenCalledOnce();
    expect(() => reloadOnceOrThrow(error, { storage, path: "/inquiry", now: 6_000, reload })).toThrow(error);
    expect(reload).toHaveBeenCalledOnce();
  });
});
