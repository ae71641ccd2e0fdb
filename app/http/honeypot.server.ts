import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import type { AppConfig } from "~/infra/config";

/** The spam trap of public forms, keyed by the configured (or generated) HONEYPOT_SECRET. */
export function honeypotFor(config: Pick<AppConfig, "HONEYPOT_SECRET">) {
  return new Honeypot({ encryptionSeed: config.HONEYPOT_SECRET });
}

/** Answers whether the form data fell into the trap: hidden fields missing or filled, or a forged timestamp. */
export function isSpam(honeypot: Honeypot, formData: FormData) {
  // remix-utils skips its check when both fields are absent; a form we served always has them.
  const { nameFieldName, validFromFieldName } = honeypot.getInputProps();
  if (!formData.has(nameFieldName) || (validFromFieldName && typeof formData.get(validFromFieldName) !== "string")) return true;
  try {
    honeypot.check(formData);
    return false;
  } catch (error) {
    if (error instanceof SpamError) return true;
    // A timestamp not encrypted with our key may not even decrypt: crypto-js throws a plain Error. Forged: spam.
    if (error instanceof Error && error.message === "Malformed UTF-8 data") return true;
    throw error;
  }
}
