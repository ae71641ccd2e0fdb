import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import type { AppConfig } from "../../server/config";

/** The spam trap of public forms, keyed by the configured (or generated) HONEYPOT_SECRET. */
export function honeypotFor(config: Pick<AppConfig, "HONEYPOT_SECRET">) {
  return new Honeypot({ encryptionSeed: config.HONEYPOT_SECRET });
}

/** Answers whether the form data fell into the trap (a bot filled the hidden field or forged the timestamp). */
export function isSpam(honeypot: Honeypot, formData: FormData) {
  try {
    honeypot.check(formData);
    return false;
  } catch (error) {
    if (error instanceof SpamError) return true;
    throw error;
  }
}
