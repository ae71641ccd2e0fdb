import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import type { ViteDevServer } from "vite";
import type { AppConfig } from "../../app/infra/config";
import { localUploadsDir } from "../../app/infra/storage";
import { OFFLINE_PAGE_PATH, SERVICE_WORKER_PATH } from "../../app/lib/constants/installed-app";
import { offlinePageHtml } from "../../app/lib/offline-page";
import { inlineOnlyPolicy } from "../security";

const UPLOAD_CONTENT_TYPES: Record<string, string> = { ".jpg": "image/jpeg", ".png": "image/png", ".webp": "image/webp", ".gif": "image/gif" };

/**
 * Uploaded images on disk (ADR 017), named by their content's hash: they never change, so they are cached for a year.
 * Served as the image type of their name and never sniffed as anything else; a missing one is a 404, a folder too.
 */
export function uploadedImages(config: Pick<AppConfig, "DATA_DIR">): express.RequestHandler {
  return express.static(localUploadsDir(config), {
    immutable: true,
    maxAge: "1y",
    fallthrough: false,
    index: false,
    redirect: false,
    dotfiles: "deny",
    setHeaders: (res, file) => {
      res.setHeader("X-Content-Type-Options", "nosniff");
      const type = UPLOAD_CONTENT_TYPES[path.extname(file)];
      if (type) res.setHeader("Content-Type", type);
    },
  });
}

/**
 * The build's id, which the browser compares with the build it runs to notice a new deployment
 * (app/lib/build-version.ts), and the installed app (ADR 053): the page the service worker shows without a network,
 * self-contained under a policy of its own, and the worker, looked at afresh by every update check: the build's, or in
 * development one without a shell.
 */
export function installedApp({ getBuild, vite, clientDir }: { getBuild: () => Promise<ServerBuild>; vite: ViteDevServer | undefined; clientDir: string }): express.Router {
  const router = express.Router();
  router.get("/builds/latest", async (_req, res, next) => {
    try {
      const build = await getBuild();
      res.set("Cache-Control", "no-store").json({ id: build.assets.version });
    } catch (error) {
      next(error);
    }
  });

  const offlinePage = offlinePageHtml();
  const offlinePolicy = inlineOnlyPolicy(offlinePage);
  router.get(OFFLINE_PAGE_PATH, (_req, res) => {
    res.set({ "Content-Security-Policy": offlinePolicy, "Cache-Control": "no-cache" }).type("html").send(offlinePage);
  });

  if (vite) {
    router.get(SERVICE_WORKER_PATH, async (_req, res, next) => {
      try {
        const { developmentServiceWorker } = await import("../build-service-worker.mjs");
        res.set("Cache-Control", "no-cache").type("js").send(await developmentServiceWorker({ offlinePage }));
      } catch (error) {
        next(error);
      }
    });
  } else {
    router.get(SERVICE_WORKER_PATH, (_req, res, next) => {
      res.sendFile(path.join(clientDir, "sw.js"), { cacheControl: false, headers: { "Cache-Control": "no-cache" } }, (error) => error && next(error));
    });
  }
  return router;
}

/**
 * The browser's files: in development Vite's middlewares; else the client build, where Vite fingerprints everything
 * under assets/ (cached for a year, anything else may change between deploys) and each asset also lies compressed
 * beside itself (server/build.mjs): brotli where the browser takes it, else gzip.
 */
export function clientFiles({ vite, clientDir }: { vite: ViteDevServer | undefined; clientDir: string }): express.Router {
  const router = express.Router();
  if (vite) {
    router.use(vite.middlewares);
    return router;
  }
  router.use(
    "/assets",
    expressStaticGzip(path.join(clientDir, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gz"],
      index: false,
      serveStatic: { immutable: true, maxAge: "1y", fallthrough: false },
    }),
  );
  router.use(express.static(clientDir, { maxAge: "1h" }));
  return router;
}
