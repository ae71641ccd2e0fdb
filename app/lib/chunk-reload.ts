import { CHUNK_RELOAD_WINDOW_MS } from "./constants/site";

const STORAGE_KEY = "gm:chunk-reload";

interface ReloadEnvironment {
  storage: Pick<Storage, "getItem" | "setItem">;
  path: string;
  now: number;
  reload: () => void;
}

/**
 * Decides what a failed chunk load does (docs/product.md#screens, #errors): the first failure on a path reloads the
 * page; another failure on the same path within 10 seconds is rethrown to the error boundary.
 */
export function decideChunkReload({ storage, path, now }: Omit<ReloadEnvironment, "reload">): "reload" | "rethrow" {
  let last: { path?: string; at?: number } = {};
  try {
    last = JSON.parse(storage.getItem(STORAGE_KEY) ?? "{}");
  } catch {
    // A corrupt entry counts as no earlier reload.
  }
  if (last.path === path && typeof last.at === "number" && now - last.at < CHUNK_RELOAD_WINDOW_MS) {
    return "rethrow";
  }
  storage.setItem(STORAGE_KEY, JSON.stringify({ path, at: now }));
  return "reload";
}

/** Called by Remix's route module loader (patched in vite.config.ts) when a chunk fails to load. */
export function reloadOnceOrThrow(error: unknown, env?: ReloadEnvironment): Promise<never> {
  const { storage, path, now, reload } = env ?? {
    storage: window.sessionStorage,
    path: window.location.pathname,
    now: Date.now(),
    reload: () => window.location.reload(),
  };
  if (decideChunkReload({ storage, path, now }) === "rethrow") throw error;
  reload();
  // The page is going away; never settle, so nothing renders half-loaded in the meantime.
  return new Promise<never>(() => {});
}

type RouteModules = Record<string, unknown>;

/**
 * What Remix's route module loader does when a route chunk fails (patched in vite.config.ts).
 * When the failure is rethrown, the route gets a module whose component throws it: Remix reads
 * route modules while rendering the document (meta, links) outside any error boundary, so a route
 * left without a module would blank the page instead of showing the error page.
 */
export function handleRouteModuleError(error: unknown, route: { id: string }, routeModules: RouteModules) {
  try {
    return reloadOnceOrThrow(error);
  } catch (rethrown) {
    const failed = {
      default: function RouteModuleFailed(): never {
        throw rethrown;
      },
    };
    routeModules[route.id] = failed;
    return failed;
  }
}
