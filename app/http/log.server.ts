import { log } from "~/infra/logger.server";

/**
 * For reads whose failure the product swallows (docs/product.md#errors: notifications, counts): logs the error and
 * answers the fallback, so the page renders with empty values instead of failing.
 */
export const swallowed =
  <T>(what: string, fallback: T) =>
  (error: unknown): T => {
    log.error({ err: error }, `swallowed: could not load ${what}`);
    return fallback;
  };
