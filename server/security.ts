import { createHash, randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import { messages, notFoundMessage } from "../app/lib/messages";
import helmet from "helmet";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      cspNonce: string;
    }
  }
}

/** A fresh nonce per response; the document's inline scripts carry it (see app/entry.server.tsx). */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
};

/**
 * Security headers with a Content-Security-Policy that allows no inline script without the nonce.
 * Development relaxes only what Vite's dev client needs (injected styles, its HMR websocket).
 */
export function securityHeaders({
  development,
  supabaseUrl,
  imagesOrigins = [],
  stripeCheckout = false,
  discord,
}: {
  development: boolean;
  supabaseUrl?: string;
  /**
   * Where uploaded images are read from when not from this server: the object store's public origin and the one its
   * signed URLs for private pictures point at (app/infra/storage).
   */
  imagesOrigins?: Array<string | undefined>;
  stripeCheckout?: boolean;
  /** Discordでログイン is on: its pages' origin, and its CDN's (shared servers' icons on profiles). */
  discord?: { origin: string; cdnOrigin: string };
}): RequestHandler {
  // Signing in with Discord posts a form that redirects to Supabase (or our own /auth/v1), then Discord; paying for
  // coins posts one that redirects to Stripe Checkout: form-action covers redirects.
  const oauthTargets = [...(supabaseUrl ? [new URL(supabaseUrl).origin] : []), ...(discord ? [discord.origin] : [])];
  if (stripeCheckout) oauthTargets.push("https://checkout.stripe.com");
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", (_req, res) => `'nonce-${(res as unknown as { locals: Express.Locals }).locals.cspNonce}'`],
        "style-src": development ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        // Uploaded images come from this server, or from the object store (S3-API, Supabase Storage) when one is configured.
        "img-src": ["'self'", "data:", "blob:", ...new Set([...(supabaseUrl ? [new URL(supabaseUrl).origin] : []), ...imagesOrigins.filter((origin) => origin !== undefined)]), ...(discord ? [discord.cdnOrigin] : [])],
        "font-src": ["'self'"],
        // blob: the new post dialog's preview is an object URL of the chosen file, which Chromium also reads as a fetch.
        "connect-src": development ? ["'self'", "blob:", "ws:"] : ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'", ...oauthTargets],
        "frame-ancestors": ["'none'"],
      },
    },
    // Pages embed nothing cross-origin; keep the default opener isolation but allow images from anywhere we list.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * POSTs that a signature in their URL authorizes, never a cookie: a forged cross-site one can do nothing the signed
 * URL does not already allow. RFC 8058's one-click unsubscribe comes from a mail provider, not from our pages.
 */
const SIGNED_URL_POSTS = new Set(["/unsubscribe"]);

/**
 * Refuses a state-changing request that a browser sent from another site (CSRF). Browsers say
 * where a request comes from in Sec-Fetch-Site, and older ones in Origin; requests without
 * either (server-to-server, supabase-js in Node, curl) carry no ambient cookies worth stealing.
 */
export const refuseCrossSiteWrites: RequestHandler = (req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  if (req.method === "POST" && SIGNED_URL_POSTS.has(req.path)) {
    // Remix refuses an action whose Origin is not this host (a 500): the provider's Origin is no credential here.
    delete req.headers.origin;
    return next();
  }
  const site = req.get("sec-fetch-site");
  const origin = req.get("origin");
  const sameOrigin = origin === undefined || origin === `${req.protocol}://${req.get("host")}`;
  const crossSite = site ? site !== "same-origin" && site !== "none" : !sameOrigin;
  if (!crossSite) return next();
  res.status(403).json({ success: false, error: { code: "cross_origin", message: messages.auth.crossOrigin } });
};

/**
 * A URL with a NUL in its path or query (`%00`) is a 400 before the app: the database cannot store NUL (ADR 054), and
 * no route's params or query need one. The request readers refuse it in bodies (app/http/unstorable.server.ts); percent
 * decoding never yields a lone surrogate (bad UTF-8 becomes U+FFFD), so NUL is all a URL can carry of that kind.
 */
export const refuseUnstorableUrls: RequestHandler = (req, res, next) => {
  if (!/%00|\u0000/i.test(req.originalUrl)) return next();
  const message = messages.validation.invalidCharacters;
  if (/^\/(api|auth\/v1)(\/|$)/.test(req.path)) res.status(400).json({ success: false, error: { code: "invalid_input", message } });
  else res.status(400).type("text/plain; charset=utf-8").send(message);
};

/**
 * A path that decodes to `//…` or `/\…` reads as another host to a URL parser: React Router's, rendering the page's
 * links, threw on `/%5CIsc%3A%5Bgv` (an invalid host) and the page was a 500. No page of ours has such a path, so it
 * is the 404 of any unknown path (docs/product.md#errors), answered before the app.
 */
export const refuseHostLikePaths: RequestHandler = (req, res, next) => {
  let path = req.path;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Malformed percent-encoding is Remix's to answer (400); the raw path is checked as it is.
  }
  if (!/^[/\\]{2}/.test(path)) return next();
  res.status(404).type("text/plain; charset=utf-8").send(notFoundMessage(req.path));
};

/**
 * The Content-Security-Policy of a self-contained page (the offline page, ADR 053): nothing from anywhere, not even this
 * server, but its own inline `<style>` and `<script>` blocks, allowed by their hashes, and inline images.
 */
export function inlineOnlyPolicy(html: string): string {
  const hashes = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((match) => `'sha256-${createHash("sha256").update(match[1]!).digest("base64")}'`);
  const allowed = (list: string[]) => (list.length > 0 ? list.join(" ") : "'none'");
  return [
    "default-src 'none'",
    `style-src ${allowed(hashes("style"))}`,
    `script-src ${allowed(hashes("script"))}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
