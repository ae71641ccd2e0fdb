import type http from "node:http";
import type { ServerBuild } from "@remix-run/node";
import type { ViteDevServer } from "vite";

export interface RemixBuildSource {
  getBuild: () => Promise<ServerBuild>;
  /** Vite in middleware mode, in development only. */
  vite: ViteDevServer | undefined;
  development: boolean;
}

/** The built Remix app (production and tests), or without one Vite in middleware mode loading it from source. */
export async function loadRemixBuild(build: ServerBuild | undefined, httpServer: http.Server): Promise<RemixBuildSource> {
  if (build) return { getBuild: async () => build, vite: undefined, development: false };
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true, hmr: { server: httpServer } } });
  return { getBuild: () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>, vite, development: true };
}
