import express from "express";
import type { AppConfig } from "../../app/infra/config";
import type { DiscordClient } from "../../app/infra/discord";
import type { Payments } from "../../app/infra/payments";
import { privateImagesOrigin, publicImagesOrigin } from "../../app/infra/storage";
import { discardUnreadBody } from "../body-limit";
import { cspNonce, refuseCrossSiteWrites, refuseHostLikePaths, refuseUnstorableUrls, securityHeaders } from "../security";

/**
 * What every request passes before it is answered: its CSP nonce and security headers (server/security.ts), the
 * refusal of cross-site writes and of host-like paths, and the body limits (server/body-limit.ts).
 */
export function requestGuards({
  config,
  development,
  payments,
  discord,
}: {
  config: AppConfig;
  development: boolean;
  payments: Payments;
  discord: DiscordClient | undefined;
}): express.Router {
  const guards = express.Router();
  guards.use(cspNonce);
  guards.use(
    securityHeaders({
      development,
      supabaseUrl: config.SUPABASE_URL,
      imagesOrigins: [publicImagesOrigin(config), privateImagesOrigin(config)],
      stripeCheckout: payments.provider === "stripe",
      discord: config.SUPABASE_URL || discord ? { origin: new URL(config.DISCORD_URL).origin, cdnOrigin: new URL(config.DISCORD_CDN_URL).origin } : undefined,
    }),
  );
  guards.use(refuseCrossSiteWrites);
  guards.use(refuseHostLikePaths);
  guards.use(refuseUnstorableUrls);
  guards.use(discardUnreadBody());
  return guards;
}
